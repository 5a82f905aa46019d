// Runs `health`: asks the API whether it is up (no key needed) and prints one status line, or it as JSON.
import { plainLine } from '../../output/control-escapes.js';
import { UnhealthyError } from '../../runtime/cli-errors.js';
import type { Session } from '../../runtime/session.js';
import type { HealthPlan } from './plans.js';

export async function runHealth(_plan: HealthPlan, session: Session): Promise<void> {
  // A status line, not records: JSON only when asked for (-f, or an -o file's extension), whatever the pipe or profile.
  const output = await session.output({ status: 'line' });
  const { client, settings } = await session.api({ needsKey: false });
  const result = await client.health();
  // The server's words, on a line for people: one line, none of its control codes (the JSON escapes them itself).
  // The status the answer says (its JSON `status`, or a plain-text word such as `OK`).
  const status = plainLine(String(result.status ?? 'unknown'));
  const version = result.body?.version ? `, version ${plainLine(String(result.body.version))}` : '';
  // One JSON object on one line, whichever of json and jsonl was asked for. The verdict is ours: the server's body
  // comes first, so that its own `healthy`, `http_status` or `latency_ms` cannot stand in for what we measured.
  const answer = {
    ...result.body,
    // The status read beside fields of other types (`"timestamp": 1717000000`), which leave no health body.
    ...(result.status !== undefined && result.body === undefined && { status: result.status }),
    healthy: result.healthy,
    http_status: result.httpStatus,
    latency_ms: result.latencyMs,
  };
  const doc = {
    people: () => `${status} (HTTP ${result.httpStatus}, ${result.latencyMs} ms${version}) ${settings.baseUrl}\n`,
    one: answer,
    items: [answer],
  };
  // Written (and an -o file committed) before an unhealthy answer fails the run: the line says why.
  await output.write((sink) => sink.document(doc));
  if (!result.healthy) throw new UnhealthyError(`the API reports '${status}' (HTTP ${result.httpStatus})`);
}
