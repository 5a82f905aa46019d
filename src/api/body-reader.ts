// Reads a response body to text: decodes gzip, deflate and br, and abandons the body past a size bound.
import { isUtf8 } from 'node:buffer';
import { Writable, type Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { InvalidResponseError, ResponseTooLargeError } from './api-errors.js';

const MIB = 1024 * 1024;

/**
 * The bytes of every body up to this size are joined in one buffer kept for the next: a fresh buffer the size of
 * a page (about a MiB) costs a page fault per 4 KiB written, which cost a sync more than the copying.
 */
const SCRATCH_MAX = 4 * MIB;
let scratch: Buffer | undefined;
const utf8 = new TextDecoder();

/** A body as text, and whether it held bytes that are not UTF-8 (each replaced with U+FFFD, as fetch's text() does). */
export interface BodyText {
  text: string;
  notUtf8: boolean;
}

/**
 * The bytes as UTF-8. Only a text holding U+FFFD is checked again (isUtf8, native): the API may send U+FFFD
 * itself, and a page without one costs no second pass.
 */
function decode(bytes: Uint8Array): BodyText {
  const text = utf8.decode(bytes);
  return { text, notUtf8: text.includes('\uFFFD') && !isUtf8(bytes) };
}

/** The body's chunks as one text; the joined bytes live only until decoded, within this call. */
function decodeJoined(chunks: readonly Buffer[], size: number): BodyText {
  if (chunks.length === 1) return decode(chunks[0] as Buffer);
  if (size > SCRATCH_MAX) return decode(Buffer.concat(chunks, size));
  if (scratch === undefined || scratch.length < size) {
    scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_MAX, Math.max(size, 2 * (scratch?.length ?? 0))));
  }
  let at = 0;
  for (const chunk of chunks) {
    scratch.set(chunk, at);
    at += chunk.length;
  }
  return decode(scratch.subarray(0, size));
}

function describeSize(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** The header's codings in the order they were applied; the body is decoded in reverse. */
function codings(header: string | string[] | undefined): string[] {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

function decoderFor(coding: string, status: number): Transform {
  if (coding === 'gzip' || coding === 'x-gzip') return zlib.createGunzip();
  // RFC 9110: "deflate" is the zlib format. A raw deflate stream fails to decode, as it should.
  if (coding === 'deflate') return zlib.createInflate();
  if (coding === 'br') return zlib.createBrotliDecompress();
  // The header is the server's text: name it only when it looks like a coding.
  const name = /^[a-z0-9._+-]{1,32}$/.test(coding) ? `'${coding}'` : 'an unknown coding';
  throw new InvalidResponseError(`the API answered with Content-Encoding ${name}, which the client cannot decode`, {
    status,
  });
}

/**
 * The whole body as text (a leading BOM dropped and bytes that are not UTF-8 replaced with U+FFFD, as fetch's text()
 * does; `notUtf8` says there were such bytes). Past `maxBytes` of decoded
 * body it stops reading and throws ResponseTooLargeError; only the decoded body is held in memory,
 * so a compressed body that decodes to little costs little too. A body that does not decode is
 * retryable, like one cut short.
 */
export async function readBody(
  body: Readable,
  status: number,
  encoding: string | string[] | undefined,
  maxBytes: number,
): Promise<BodyText> {
  let decoders: Transform[];
  try {
    decoders = codings(encoding)
      .reverse()
      .map((c) => decoderFor(c, status));
  } catch (err) {
    // An unread body would hold the connection. Destroyed unread, the body reports an abort: expected here.
    body.once('error', () => {});
    body.destroy();
    throw err;
  }
  // Which stage failed first: pipeline passes the first failure on to every other stage.
  let failed: 'body' | 'decoder' | 'size' | undefined;
  body.once('error', () => (failed ??= 'body'));
  for (const d of decoders) d.once('error', () => (failed ??= 'decoder'));
  const chunks: Buffer[] = [];
  let size = 0;
  const collect = new Writable({
    write(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return done();
      }
      failed ??= 'size';
      done(
        new ResponseTooLargeError(`the answer is larger than ${describeSize(maxBytes)}`, {
          status,
          limitBytes: maxBytes,
        }),
      );
    },
  });
  try {
    await pipeline([body, ...decoders, collect]);
  } catch (err) {
    if (failed === 'decoder') {
      throw new InvalidResponseError(`the API's ${codings(encoding).join(', ')} body could not be decoded`, {
        status,
        retryable: true,
      });
    }
    throw err;
  }
  return decodeJoined(chunks, size);
}
