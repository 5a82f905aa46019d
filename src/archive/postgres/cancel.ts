// Cancelling what a connection runs on the server (a statement waiting for a lock, when the run is stopped): pg's client
// cannot be interrupted while it waits for an answer.
import net from 'node:net';
import path from 'node:path';
import type pg from 'pg';
import { connect, type PgTarget } from './connect.js';

/** What pg keeps of a connected client and does not declare: where it is connected, and the server's key for it. */
interface Session {
  host: string;
  port: number;
  processID: number;
  secretKey: number;
}

/**
 * Asks the server to cancel what `client`'s session runs (a wait for a lock): pg's client cannot be interrupted while it
 * waits for an answer. First by the protocol's cancel request, as libpq's PQcancel sends it: no login, so a role at its
 * connection limit is no obstacle; else by pg_cancel_backend over a session of its own. Best effort either way.
 */
export async function cancelBackend(target: PgTarget, client: pg.Client): Promise<void> {
  const session = client as unknown as Session;
  try {
    await cancelRequest(session);
    return;
  } catch {
    // The server could not be reached that way (a pooler that does not relay it): a session of its own.
  }
  const other = await connect(target);
  try {
    await other.query('SELECT pg_cancel_backend($1)', [session.processID]);
  } finally {
    await other.end().catch(() => {});
  }
}

/** The protocol's CancelRequest (16 bytes: length, the code 80877102, the pid, the key) to where `session` is connected. */
function cancelRequest(session: Session): Promise<void> {
  return new Promise((resolve, reject) => {
    const { host, port } = session;
    const socket = host.startsWith('/') ? net.connect(path.join(host, `.s.PGSQL.${port}`)) : net.connect(port, host);
    socket.setTimeout(5_000, () => socket.destroy(new Error('the cancel request was not taken')));
    socket.once('error', reject);
    socket.once('connect', () => {
      const request = Buffer.alloc(16);
      request.writeInt32BE(16, 0);
      request.writeInt32BE(80_877_102, 4);
      request.writeInt32BE(session.processID, 8);
      request.writeInt32BE(session.secretKey, 12);
      socket.end(request);
    });
    // The server closes the connection once it has read the request.
    socket.once('close', (failed) => (failed ? undefined : resolve()));
  });
}
