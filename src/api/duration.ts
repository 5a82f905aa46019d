// The one duration grammar (250ms, 2s, 1.5m, 1h, 1d, 2w), shared by --pace, --since and the sandbox's flags.
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

type DurationUnit = keyof typeof UNIT_MS;

/** Milliseconds, rounded; a bare number counts in `bareUnit` (refused when none is given). Undefined when not a duration. */
export function parseDuration(text: string, bareUnit?: DurationUnit): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d|w)?$/.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] as DurationUnit | undefined) ?? bareUnit;
  if (unit === undefined) return undefined;
  const ms = Number(m[1]) * UNIT_MS[unit];
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}
