// Word lists for the data generator: products, hazards, brands and parties per source (French ones in French).

export interface ProductTemplate {
  product: string;
  category: string;
  /** Short hazard name used in titles. */
  hazard: string;
  description: string;
  risks: string[];
  standards: string[];
}

const p = (
  product: string,
  category: string,
  hazard: string,
  description: string,
  risks: string[],
  standards: string[] = [],
): ProductTemplate => ({ product, category, hazard, description, risks, standards });

export const EN_PRODUCTS: ProductTemplate[] = [
  p('Infant Walkers', 'Nursery Products', 'Fall', 'The walkers can fit through a standard doorway and are not designed to stop at the edge of a step, posing a fall hazard to children.', ['injury', 'fall'], ['16 CFR 1216', 'ASTM F977-22']),
  p('Portable Power Banks', 'Electronics', 'Fire', 'The lithium-ion cells can overheat while charging, posing fire and burn hazards.', ['fire', 'burn'], ['UL 2056', 'IEC 62133-2']),
  p('Children\'s Hooded Sweatshirts', 'Clothing', 'Strangulation', 'The hooded sweatshirts have drawstrings at the neck, which can become entangled and pose a strangulation hazard to children.', ['strangulation', 'death'], ['16 CFR 1120', 'EN 14682']),
  p('Six-Drawer Dressers', 'Furniture', 'Tip-Over', 'The dressers are unstable if not anchored to the wall, posing tip-over and entrapment hazards that can result in death or injuries to children.', ['injury', 'death', 'entrapment'], ['16 CFR 1261']),
  p('Magnetic Building Sets', 'Toys', 'Ingestion', 'Small high-powered magnets can detach; if swallowed they can attract each other inside the body and cause serious internal injuries.', ['ingestion', 'injury'], ['ASTM F963-17', 'EN 71-1']),
  p('Electric Scooters', 'Sports & Recreation', 'Fall', 'The front fork can break during use, causing the rider to lose control and fall.', ['fall', 'injury'], ['EN 17128']),
  p('Space Heaters', 'Household Appliances', 'Fire', 'The power cord and plug can overheat, posing fire and burn hazards.', ['fire', 'burn', 'electric_shock'], ['UL 1278', 'EN 60335-2-30']),
  p('Infant Loungers', 'Nursery Products', 'Suffocation', 'The loungers do not meet the safe sleep standard; infants can roll into a position that obstructs breathing.', ['suffocation', 'death'], ['16 CFR 1242']),
  p('Bicycle Helmets', 'Sports & Recreation', 'Head Injury', 'The helmets do not comply with the positional stability and impact attenuation requirements and may not protect in a crash.', ['injury'], ['16 CFR 1203', 'EN 1078']),
  p('Plush Toys', 'Toys', 'Choking', 'The eyes can detach, posing a choking hazard to young children.', ['choking'], ['EN 71-1', 'ASTM F963-17']),
  p('USB Chargers', 'Electronics', 'Electric Shock', 'Insufficient clearance between the mains and the low-voltage output can lead to an electric shock.', ['electric_shock'], ['EN 62368-1']),
  p('Kids\' Cosmetic Kits', 'Cosmetics', 'Chemical', 'The lip gloss contains boron above the permitted limit, which may harm the reproductive system.', ['chemical'], ['Regulation (EC) No 1223/2009']),
];

export const FR_PRODUCTS: ProductTemplate[] = [
  p('Trottinette électrique', 'Sports et loisirs', 'chute', 'Le guidon peut se désolidariser de la colonne de direction en cours d\'utilisation, entraînant une chute de l\'utilisateur.', ['chute', 'blessure'], ['NF EN 17128']),
  p('Chargeur USB', 'Appareils électriques', 'électrocution', 'Isolation insuffisante entre les parties sous tension et la sortie basse tension : risque d\'électrocution.', ['électrocution'], ['NF EN 62368-1']),
  p('Peluche', 'Jouets', 'étouffement', 'Les yeux de la peluche peuvent se détacher et être avalés par un jeune enfant.', ['étouffement'], ['NF EN 71-1']),
  p('Siège auto', 'Puériculture', 'blessure', 'La boucle du harnais peut s\'ouvrir en cas de choc.', ['blessure'], ['ECE R129']),
  p('Radiateur soufflant', 'Appareils électriques', 'incendie', 'Surchauffe du cordon d\'alimentation pouvant provoquer un départ de feu.', ['incendie', 'brûlure'], ['NF EN 60335-2-30']),
  p('Casque de vélo', 'Sports et loisirs', 'blessure', 'Le casque n\'absorbe pas suffisamment les chocs.', ['blessure'], ['NF EN 1078']),
  p('Bijou fantaisie', 'Accessoires', 'chimique', 'Teneur en cadmium supérieure à la limite autorisée par le règlement REACH.', ['chimique'], ['Règlement (CE) n° 1907/2006']),
];

export const FR_FOODS: ProductTemplate[] = [
  p('Fromage au lait cru', 'Lait et produits laitiers', 'Listeria', 'Présence de Listeria monocytogenes détectée lors d\'un autocontrôle.', ['listeria'], []),
  p('Saucisson sec', 'Viandes', 'Salmonelle', 'Présence de salmonelles (Salmonella spp.).', ['salmonelle'], []),
  p('Chocolat noir 70 %', 'Produits sucrés', 'allergène', 'Présence de lait non mentionnée sur l\'étiquetage (allergène).', ['allergène'], []),
  p('Galettes de riz', 'Céréales et produits de boulangerie', 'corps étranger', 'Présence possible de fragments de métal.', ['corps_étranger'], []),
  p('Lait infantile 2e âge', 'Aliments pour bébés', 'Cronobacter', 'Suspicion de contamination par Cronobacter sakazakii.', ['cronobacter'], []),
  p('Huîtres creuses', 'Produits de la mer', 'norovirus', 'Présence de norovirus mise en évidence par les services sanitaires.', ['norovirus'], []),
  p('Épices mélangées', 'Aides culinaires', 'oxyde d\'éthylène', 'Présence d\'oxyde d\'éthylène au-delà de la limite maximale de résidus.', ['chimique'], ['Règlement (CE) n° 396/2005']),
];

export const EN_BRANDS = ['BaoD', 'Kidzone', 'Voltra', 'HomeEase', 'PeakRide', 'Snuggly', 'Brightway', 'Tinkertown', 'Arcfield', 'Nordvik', 'Luma Kids', 'ZenCharge'];
export const FR_BRANDS = ['Les Jardins d\'Émile', 'Maison Delorme', 'Petit Loup', 'Ferme des Saules', 'Bon Marché Malin', 'Côté Cuisine', 'Atelier Lumière', 'Saveurs d\'Antan'];

export const ORIGINS = ['China', 'Vietnam', 'India', 'Turkey', 'Poland', 'United States', 'Germany', 'Bangladesh', 'Mexico'];
export const ORIGIN_CODES: Record<string, string> = {
  China: 'CN', Vietnam: 'VN', India: 'IN', Turkey: 'TR', Poland: 'PL', 'United States': 'US', Germany: 'DE',
  Bangladesh: 'BD', Mexico: 'MX', France: 'FR', Italy: 'IT', Spain: 'ES', 'United Kingdom': 'GB',
};
export const FR_ORIGINS = ['France', 'France', 'France', 'Italie', 'Espagne', 'Chine', 'Belgique'];

export const RETAILERS = ['Amazon.com', 'Walmart', 'Target', 'Temu', 'Shein', 'AliExpress', 'Home Depot', 'Argos', 'Currys'];
export const FR_RETAILERS = ['Carrefour', 'Leclerc', 'Auchan', 'Intermarché', 'Lidl', 'Cdiscount', 'Monoprix'];

export const EU_COUNTRIES = ['DE', 'FR', 'IT', 'ES', 'NL', 'PL', 'SE', 'CZ', 'HU', 'CY', 'SK', 'LT', 'FI', 'AT', 'BE'];
export const EU_AUTHORITIES: Record<string, string> = {
  DE: 'Germany - Federal Institute for Occupational Safety and Health (BAuA)',
  FR: 'France - Directorate-General for Competition, Consumer Affairs and Fraud Control (DGCCRF)',
  IT: 'Italy - Ministry of Enterprises and Made in Italy',
  ES: 'Spain - Spanish Agency for Consumer Affairs (AESAN)',
  NL: 'Netherlands - Netherlands Food and Consumer Product Safety Authority (NVWA)',
  PL: 'Poland - Office of Competition and Consumer Protection (UOKiK)',
  SE: 'Sweden - Swedish Consumer Agency',
  CZ: 'Czechia - Czech Trade Inspection Authority',
  HU: 'Hungary - Ministry of Justice, Consumer Protection Department',
  CY: 'Cyprus - Ministry of Energy, Commerce and Industry',
  SK: 'Slovakia - Slovak Trade Inspection',
  LT: 'Lithuania - State Consumer Rights Protection Authority',
  FI: 'Finland - Finnish Safety and Chemicals Agency (Tukes)',
  AT: 'Austria - Federal Ministry of Social Affairs',
  BE: 'Belgium - FPS Economy',
};

export const EN_MEASURE_DETAILS = [
  'Consumers should immediately stop using the recalled product and contact the firm for a full refund.',
  'Consumers should stop using the product and contact the company for a free repair kit.',
  'Withdrawal of the product from the market and recall from end users.',
  'Consumers should return the product to the place of purchase for a replacement.',
];
export const FR_MEASURE_DETAILS = [
  'Ne plus utiliser le produit et le rapporter au point de vente où il a été acheté. Remboursement.',
  'Ne pas consommer. Rapporter le produit au point de vente ou le détruire.',
  'Contacter le service consommateurs pour un échange du produit.',
];
