export function runSchema(_n: string | undefined, _l: boolean, _c: unknown): void {}
