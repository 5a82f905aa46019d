// Barcodes with a valid GS1 check digit, computed here (not by the code under test), and a recall that carries one.

/** `body` and its GS1 check digit: weights 3 and 1 alternating from the right of the body. */
export function withCheck(body: string): string {
  const sum = [...body].reverse().reduce((s, d, i) => s + Number(d) * (i % 2 === 0 ? 3 : 1), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A RappelConso yoghurt recall whose only identifier is `code`: the catalogue row carrying it matches by barcode. */
export function yoghurtWithBarcode(code: string) {
  return {
    data_source: 'rappel_conso',
    product_brand: 'Laiterie',
    product_name: 'Yaourt',
    product_model_numbers: [],
    product_description: 'x',
    packaging_description: null,
    alert_summary: 'x',
    standard_identifiers_and_barcodes: [code],
  };
}
