// Masks the tool's own secrets (the API key, webhook URLs and their tokens, passwords in URLs) inside text a server chose.
//
// A server may echo what it was sent: an API key in a 401's message, a webhook's token in its refusal, a
// password in a database error. Such text is printed and stored (sync_runs.error), so every secret the
// run holds is masked in it first. One function, used by the client for its own key and by the CLI for
// the rest.
import { ApiError, RedirectError } from './api-errors.js';
import { mapTexts } from './text-values.js';
import { percentDecode } from './percent-decode.js';

/** Shorter values are no secret worth searching for (and masking them would mangle ordinary words). */
const MIN_SECRET_CHARS = 4;

/** First 8 characters + `…` + last 4; values of 12 characters or fewer show as `****`. */
export function maskSecret(secret: string): string {
  const chars = Array.from(secret);
  if (chars.length <= 12) return '****';
  return `${chars.slice(0, 8).join('')}…${chars.slice(-4).join('')}`;
}

/** How a secret is masked inside server text: recognisable when long (an API key), else `****`. */
function masked(secret: string): string {
  return Array.from(secret).length >= 24 ? maskSecret(secret) : '****';
}

/** A UTF-16 half without its other half: encodeURIComponent throws on one (URIError). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `value` percent-encoded, a lone surrogate as U+FFFD (as URL and fetch send one). Never throws: a hand-edited config
 * file may hold `"\ud800"` in a secret, and masking runs while an error is reported, where a throw would lose that error.
 */
function percentEncoded(value: string): string {
  return encodeURIComponent(value.replace(LONE_SURROGATE, '\ufffd'));
}

/**
 * The forms of a secret that text may hold: the value itself and percent-encoded, and for a URL its
 * password (raw and decoded) and its path with query, where webhook services keep their tokens.
 */
export function secretForms(value: string): string[] {
  const forms = new Set<string>([value, percentEncoded(value)]);
  if (URL.canParse(value)) {
    const url = new URL(value);
    forms.add(url.href);
    if (url.password !== '') {
      forms.add(url.password);
      forms.add(percentDecode(url.password));
    }
    const tail = url.pathname + url.search;
    if (tail.length >= 8 && tail !== '/') forms.add(tail);
  }
  return [...forms].filter((f) => f.length >= MIN_SECRET_CHARS);
}

/** Shorter forms (a password such as `data`) are masked only as a whole word, never inside a longer one (`database`). */
const WORD_ONLY_BELOW = 12;

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** `text` with each whole-word `form` masked: where a word character of its own edge touches another, it is part of a longer word. */
function maskWords(text: string, form: string): string {
  const glued = (a: string | undefined, b: string | undefined) =>
    a !== undefined && b !== undefined && WORD_CHAR.test(a) && WORD_CHAR.test(b);
  let out = '';
  let from = 0;
  for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
    if (at < from) continue;
    const end = at + form.length;
    if (glued(text[at - 1], form[0]) || glued(form.at(-1), text[end])) continue;
    out += text.slice(from, at) + masked(form);
    from = end;
  }
  return out + text.slice(from);
}

/**
 * `text` with every form of every secret masked; the longest first, so a URL is masked whole. A short form only as a
 * whole word: a short password that is a common word would otherwise garble every message holding it.
 */
export function maskSecrets(text: string, secrets: Iterable<string | undefined>): string {
  const forms = new Set<string>();
  for (const s of secrets) if (s) for (const f of secretForms(s)) forms.add(f);
  if (forms.size === 0) return text;
  let out = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (!out.includes(form)) continue;
    out = Array.from(form).length < WORD_ONLY_BELOW ? maskWords(out, form) : out.split(form).join(masked(form));
  }
  return out;
}

function maskDeep(value: unknown, secrets: readonly string[]): unknown {
  return mapTexts(value, (text) => maskSecrets(text, secrets));
}

/**
 * The same error with the secrets masked in everything the server chose: its message, and for an API
 * error its help, details and a redirect's address. Changed in place (its class and fields stay).
 */
export function maskErrorSecrets<E>(err: E, secrets: readonly (string | undefined)[]): E {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_CHARS);
  if (list.length === 0 || !(err instanceof Error)) return err;
  err.message = maskSecrets(err.message, list);
  if (err instanceof ApiError) {
    const fields = err as unknown as { help?: string; details?: Record<string, unknown>; location?: string };
    if (fields.help !== undefined) fields.help = maskSecrets(fields.help, list);
    if (fields.details !== undefined) fields.details = maskDeep(fields.details, list) as Record<string, unknown>;
    if (err instanceof RedirectError && fields.location !== undefined) {
      fields.location = maskSecrets(fields.location, list);
    }
  }
  return err;
}
