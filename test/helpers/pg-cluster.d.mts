// Types of pg-cluster.mjs (plain JavaScript, so that bench/ can use it too).
export function postgresBinDir(): string | undefined;
export function startCluster(bin: string): Promise<{ url: string; stop: () => void }>;
