// What an answer's X-RateLimit-Remaining-<Window> / X-RateLimit-Reset-<Window> headers say about each window,
// for pacing: the server's own count, which includes the requests of every other client of the key. The reset
// is measured against the answer's Date header, both on the server's clock, so a wrong local clock does not matter.
import { type AnswerHeaders, header, serverDateMs } from './answer-headers.js';
import { WINDOW_NAMES, type WindowName, type WindowReport } from './pacing.js';

type WindowReports = Partial<Record<WindowName, WindowReport>>;

function first(headers: AnswerHeaders, name: string): string | undefined {
  return header(headers, name)?.trim();
}

/** A whole number >= 0, or undefined. */
function count(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/** The windows an answer's headers (names lower-case, as undici gives them) report; empty when none. */
export function windowReports(headers: AnswerHeaders): WindowReports {
  const reports: WindowReports = {};
  const serverNow = serverDateMs(headers) ?? Number.NaN;
  for (const name of WINDOW_NAMES) {
    const remaining = count(first(headers, `x-ratelimit-remaining-${name}`));
    if (remaining === undefined) continue;
    const resetSeconds = count(first(headers, `x-ratelimit-reset-${name}`));
    const report: WindowReport = { remaining };
    if (resetSeconds !== undefined && Number.isFinite(serverNow)) report.resetInMs = resetSeconds * 1000 - serverNow;
    reports[name] = report;
  }
  return reports;
}
