// The shells `recall-feed completion` writes scripts for; kept apart so the command can declare them cheaply.
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
