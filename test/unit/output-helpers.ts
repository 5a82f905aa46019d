// Test helpers for the renderer suites: collecting and slow Writables, awkward records, a record factory.
import { Writable } from 'node:stream';

export interface Collector extends Writable {
  text(): string;
  bytes(): Buffer;
}

/**
 * A Writable that keeps everything. `slow`: each write completes on a later turn, so backpressure
 * kicks in; `stalled`: no write ever completes (a reader that stopped reading).
 */
export function collector(opts: { highWaterMark?: number; slow?: boolean; stalled?: boolean } = {}): Collector {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    highWaterMark: opts.highWaterMark ?? 16 * 1024,
    write(chunk: Buffer, _enc, callback) {
      chunks.push(Buffer.from(chunk));
      if (opts.stalled) return;
      if (opts.slow) setImmediate(callback);
      else callback();
    },
  }) as Collector;
  stream.bytes = () => Buffer.concat(chunks);
  stream.text = () => Buffer.concat(chunks).toString('utf8');
  return stream;
}

/** A Writable that throws data away, counting bytes and the largest buffered amount. */
export function nullSink(): Writable & { bytes: number; maxBuffered: number } {
  const sink = new Writable({
    write(chunk: Buffer, _enc, callback) {
      sink.bytes += chunk.length;
      sink.maxBuffered = Math.max(sink.maxBuffered, sink.writableLength);
      // Asynchronous like a real pipe, so the renderer has to honour backpressure.
      setImmediate(callback);
    },
  }) as Writable & { bytes: number; maxBuffered: number };
  sink.bytes = 0;
  sink.maxBuffered = 0;
  return sink;
}

/** Awkward records: commas, quotes, newlines, CJK, emoji, formula starts, nulls, empty arrays, objects, extras. */
export const AWKWARD: Record<string, unknown>[] = [
  {
    id: 1,
    data_source: 'us_cpsc',
    alert_title: 'Heater, "Model X"\nrecalled',
    risk_severity: 'high',
    risk_types: ['fire', 'burn'],
    product_name: '=HYPERLINK("http://evil")',
    packaging_description: null,
    involved_parties: [{ name: 'Acme', role: 'maker', country: 'US' }],
    published_at: '2024-05-01T10:00:00',
  },
  {
    id: 22,
    data_source: 'safety_gate',
    alert_title: '電気ケトル 😀 リコール',
    risk_severity: 'medium',
    risk_types: [],
    product_name: '+1 kettle',
    packaging_description: '@home',
    involved_parties: [],
    published_at: '2024-05-01T11:00:00',
    extra_field: { nested: true },
  },
  {
    id: 333,
    data_source: 'uk_opss',
    alert_title: '\tTabbed\r\nline',
    risk_severity: 'low',
    risk_types: ['-x', 2],
    product_name: '-5',
    packaging_description: 'plain',
    involved_parties: null,
    published_at: '2024-05-01T12:00:00',
    score: -5,
    ok: false,
  },
];

/** A spec-shaped recall, for volume runs. */
export function makeRecall(i: number): Record<string, unknown> {
  return {
    id: i,
    data_source: 'us_cpsc',
    alert_title: `Recall number ${i}, with "quotes"`,
    risk_severity: i % 2 ? 'high' : 'low',
    risk_types: ['fire', 'shock'],
    product_name: `Widget ${i}`,
    published_at: '2024-05-01T10:00:00',
  };
}
