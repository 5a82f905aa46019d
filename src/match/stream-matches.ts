// `match` over a streamed catalogue: a first pass counts what the whole file decides, the second writes rows as found.
import { BrandHits } from './brand-hits.js';
import { rowBatch, rowCodes } from './catalogue-batch.js';
import { CatalogueColumnsError, type ColumnMap, resolveColumns } from './catalogue-columns.js';
import { boundedMemo, CatalogueCensus } from './catalogue-census.js';
import { countConflicts } from './catalogue-csv-stream.js';
import { type CatalogueShape, catalogueRows } from './catalogue-stream.js';
import { type Catalogue, CatalogueChangedError, type CatalogueRow, cellOf } from './catalogue.js';
import type { Learned } from './learned.js';
import { modelKey, nameTokens } from './match-keys.js';
import type { Match } from './match-levels.js';
import { NameWeights } from './name-score.js';
import type { PreparedRecall, RecallIndex } from './recall-index.js';
import { type RowContext, rowMatches, type StreamRow } from './row-matches.js';
import * as T from './match-thresholds.js';

/**
 * Matches handed on at once, at most (about). Few: V8 allocates an object literal's objects in the old generation from
 * the young-generation collection that finds at least 100 of them made since the last one and nearly all still alive
 * (allocation-site pretenuring), and 256 matches held together did that to the match rows' sites. Every later match
 * was then allocated there, with all it holds, and stayed until the next full collection: the peak grew with the
 * matches, so with the catalogue (issue 37).
 */
const HANDED_ON = 32;

/** The catalogue as the first pass read it: everything of a Catalogue but its rows, and the census. */
export type StreamedCatalogue = Omit<Catalogue, 'rows'> & { census: CatalogueCensus };

/** Progress: which pass, and how many rows it has read. */
export type OnRows = (pass: 'reading' | 'matching', rows: number) => void;

/**
 * The catalogue's header and columns, read before any recall is fetched: a CSV's from its first row; JSON lines'
 * from the first rows, or the whole file when those lack a column (a later row may add it).
 */
export async function catalogueHead(file: string, mapped: ColumnMap): Promise<Omit<Catalogue, 'rows'>> {
  const shape: CatalogueShape = { headers: [], repeated: [], mapped };
  for await (const _ of catalogueRows(file, shape)) {
    try {
      return { file, ...shape, columns: resolveColumns(shape.headers, mapped) };
    } catch (err) {
      // A CSV's header row is all there is; JSON lines' next rows may bring the column.
      if (!(err instanceof CatalogueColumnsError) || shape.kind !== 'jsonl') throw err;
    }
  }
  return { file, ...shape, columns: resolveColumns(shape.headers, mapped) };
}

/** The first pass: the census of the whole file for these recalls (again, when JSON lines' later rows moved a column). */
export async function readCensus(
  file: string,
  mapped: ColumnMap,
  index: RecallIndex,
  onRows?: OnRows,
): Promise<StreamedCatalogue> {
  let columns: ColumnMap | undefined;
  for (;;) {
    const shape: CatalogueShape = { headers: [], repeated: [], mapped };
    let census: CatalogueCensus | undefined;
    const restart = () => {
      census = undefined;
    };
    for await (const batch of catalogueRows(file, shape, { hash: true, restart })) {
      columns ??= resolveColumns(shape.headers, mapped);
      census ??= new CatalogueCensus(columns, index);
      for (const row of batch) {
        countConflicts(row);
        census.add(row);
      }
      onRows?.('reading', census.rows);
    }
    const final = resolveColumns(shape.headers, mapped);
    census ??= new CatalogueCensus(final, index);
    if (columns !== undefined && JSON.stringify(final) !== JSON.stringify(columns)) {
      columns = final;
      continue;
    }
    return { file, ...shape, columns: final, census };
  }
}

/** A row as the match pass indexes it (only a row some recall may touch, or whose name words are still counted). */
function streamRow(
  catalogue: StreamedCatalogue,
  row: CatalogueRow,
  brandText: string,
  codes: ReturnType<typeof rowCodes>,
  modelRaw: string,
  key: string,
): StreamRow {
  const parts = catalogue.census.brandsOf(brandText);
  return {
    row,
    brandText,
    brands: parts.brands,
    strong: parts.strong.length,
    tokens: new Set(),
    nameText: '',
    batch: {},
    gtins: codes.codes.flatMap((c) => (c.gtin14 === undefined ? [] : [c.gtin14])),
    modelKey: key.length >= T.MIN_MODEL_KEY ? key : '',
    codes: codes.codes,
    ...(codes.gs1 && { gs1: codes.gs1 }),
    modelRaw,
  };
}

/**
 * The second pass: each catalogue row's matches as it is read, in catalogue order, and for one row in the order of
 * the recalls. The same rows, levels, reasons and scopes as CatalogueIndex.match gives recall by recall.
 */
export async function* streamMatches(
  catalogue: StreamedCatalogue,
  index: RecallIndex,
  opts: { explain?: boolean; learned?: Learned; onRows?: OnRows } = {},
): AsyncGenerator<{ recall: PreparedRecall; match: Match }[]> {
  const { census } = catalogue;
  const orders = census.orders;
  const ctx: RowContext = {
    index,
    hits: new BrandHits(index, census.facts),
    weights: new NameWeights(opts.learned?.words, census.df, census.named),
    learned: opts.learned,
    explain: opts.explain === true,
    fillBatch: (r) => {
      r.batch = rowBatch(catalogue, r.row, r.gs1, orders);
    },
  };
  const { name, brand, model } = catalogue.columns;
  // Each brand cell's hits, per core: a catalogue repeats its brands row after row.
  const hitsOf = boundedMemo((text) => {
    const cores = census.brandsOf(text).brands.map((core) => ctx.hits.of(core));
    return { cores, any: cores.some((h) => h.size > 0) };
  });
  const shape: CatalogueShape = {
    headers: [],
    repeated: [],
    // The resolved columns: a role read from a blank-named column got there only by --map.
    mapped: catalogue.columns,
    ...(catalogue.readAs && { readAs: catalogue.readAs }),
  };
  for await (const batch of catalogueRows(catalogue.file, shape, { hash: true, spans: census.spans })) {
    let out: { recall: PreparedRecall; match: Match }[] = [];
    for (const row of batch) {
      const brandText = brand === undefined ? '' : cellOf(row, brand);
      const hits = hitsOf(brandText);
      const codes = rowCodes(catalogue, row);
      const modelRaw = model === undefined ? '' : cellOf(row, model);
      const key = modelKey(modelRaw);
      const touched =
        hits.any ||
        codes.codes.some((c) => c.gtin14 !== undefined && index.byGtin.has(c.gtin14)) ||
        (key.length >= T.MIN_MODEL_KEY && (index.byModel.has(key) || index.byBase.has(key)));
      const early = row.line < census.lastLate;
      // Most rows share nothing with any recall: read for these few cells only.
      if (!touched && !early) continue;
      const r = streamRow(catalogue, row, brandText, codes, modelRaw, key);
      if (r.brands.length > 0 && name !== undefined && (early || hits.any)) {
        r.nameText = cellOf(row, name);
        r.tokens = nameTokens(r.nameText, census.brandsOf(brandText).words);
        if (early) census.addEarly(row.line, r.tokens);
      }
      if (touched) for (const found of rowMatches(r, ctx, hits.cores)) out.push(found);
      // Handed on in small groups: a match held while the caller works through a whole batch outlives the young
      // generation, and a million-row catalogue's worth of them would wait for a full collection.
      if (out.length >= HANDED_ON) {
        yield out;
        out = [];
      }
    }
    // Only the rows some recall may touch are read again: the last one's line says how far the pass is.
    opts.onRows?.('matching', batch.at(-1)?.line ?? 0);
    yield out;
  }
  // Both passes must have read the same file: one rewritten in between (an export still running) is refused.
  if (shape.sha256 !== catalogue.sha256) throw new CatalogueChangedError(catalogue.file);
}
