// One doctor check's result: a name, ok / warn / fail, a one-line detail and a hint; never a secret.
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  name: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

export const ok = (name: string, detail: string): CheckResult => ({ name, status: 'ok', detail });
export const warn = (name: string, detail: string, hint?: string): CheckResult => ({
  name,
  status: 'warn',
  detail,
  hint,
});
export const fail = (name: string, detail: string, hint?: string): CheckResult => ({
  name,
  status: 'fail',
  detail,
  hint,
});
export const skip = (name: string, detail: string): CheckResult => ({ name, status: 'skip', detail });

/** The worst status: what decides the exit code. */
export function overall(results: readonly CheckResult[]): 'ok' | 'warn' | 'fail' {
  if (results.some((r) => r.status === 'fail')) return 'fail';
  if (results.some((r) => r.status === 'warn')) return 'warn';
  return 'ok';
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
