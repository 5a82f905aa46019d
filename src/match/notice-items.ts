// A notice's product name as the products it lists (FSIS writes one per bullet), each with its name words and pack sizes.
import { nameTokens } from './match-keys.js';
import { type PackSize, packSizes } from './pack-sizes.js';

export interface NoticeItem {
  tokens: ReadonlySet<string>;
  sizes: readonly PackSize[];
}

/**
 * Where one listed product ends and the next begins: FSIS's bullet. A line break is not one: the FDA breaks one
 * product's description into lines ("… Grated (Wegmans #270010)\nPackaged and sold by the pound\n…").
 */
const ITEM_BREAK = /•+/;

/** The products a notice's name lists, and every size it states. */
export interface NoticeItems {
  items: NoticeItem[];
  sizes: PackSize[];
}

/**
 * The products a notice's name lists. A catalogue row is the same product as one of them, never as words gathered
 * from several ("Turkey Sausage" from one bullet and "Polish Kielbasa 14 oz" from another). `words`: the whole
 * name's words, as the caller has them already (nameTokens(name)), which a name of one product does not read again.
 */
export function noticeItems(name: string, words: ReadonlySet<string>): NoticeItems {
  const parts = name.split(ITEM_BREAK).filter((p) => /[\p{L}\p{N}]/u.test(p));
  if (parts.length <= 1) {
    const sizes = packSizes(name);
    return { items: [{ tokens: words, sizes }], sizes };
  }
  const items = parts.map((text) => ({ tokens: nameTokens(text), sizes: packSizes(text) }));
  return { items, sizes: items.flatMap((i) => i.sizes) };
}
