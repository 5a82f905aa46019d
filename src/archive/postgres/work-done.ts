// What a lost connection's message says was kept: a page cut while it was being stored, or what committed before.
import type { TransactionKind } from '../sql/client.js';
import type { TransactionWatch } from './client.js';
import type { FailureContext } from './connect.js';

/**
 * Pages are handed over (prepared) before their turn, the next while the last is stored: a write transaction begun
 * while one waits is that page's. Only a failure inside it speaks of a page: a sync that goes on to its outbox, or a
 * `sync --watch` between rounds, has no page under way.
 */
export class WorkDone implements TransactionWatch {
  /** Pages handed over whose transaction has not ended. */
  private handed = 0;
  /** A page's transaction is open (or failed, until `failure` is asked). */
  private storing = false;
  private wrote = false;

  handedOver(): void {
    this.handed++;
  }

  began(kind: TransactionKind): void {
    if (kind === 'write' && this.handed > 0) this.storing = true;
  }

  committed(): void {
    this.wrote = true;
    this.pageEnded();
  }

  /** The failure's context (called once per failed call); the page it cut, if any, has ended with it. */
  failure(): FailureContext {
    const context = { pages: this.storing, wrote: this.wrote };
    this.pageEnded();
    return context;
  }

  private pageEnded(): void {
    if (!this.storing) return;
    this.storing = false;
    this.handed = Math.max(0, this.handed - 1);
  }
}
