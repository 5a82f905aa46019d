// The errors a user can cause when a server of ours binds its port (sandbox, mcp --http), as usage errors.
import { UsageError } from '../../runtime/cli-errors.js';

/** The errors a user can cause when binding (a taken port, a privileged one, an address not on this machine) as usage errors. */
export function listenError(err: unknown, host: string, port: number, flag: string): unknown {
  const where = `${host}:${port}`;
  switch ((err as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new UsageError(
        `port ${port} is taken (${where} is already in use)`,
        `choose another ${flag}, or ${flag} 0 to pick a free one`,
      );
    case 'EACCES':
      return new UsageError(
        `not allowed to listen on ${where}`,
        `ports below 1024 need privileges: choose another ${flag}, or ${flag} 0`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new UsageError(
        `cannot listen on ${where}: no such address on this machine`,
        'listen on 127.0.0.1 (the default), or an address of this machine',
      );
    default:
      return err;
  }
}
