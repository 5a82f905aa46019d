// The config file's shape, checked with zod when conf reads it: anything else is an error, never a reason to start over.
// Loaded with conf, only when the file exists or is written.
import { z } from 'zod';
import { ConfigShapeError } from './config-errors.js';

export type Profiles = Record<string, Record<string, string | number>>;
export type ConfigData = { profiles?: Profiles } & Record<string, unknown>;

const FileShape = z.looseObject({
  profiles: z.record(z.string(), z.record(z.string(), z.union([z.string(), z.number()]))).optional(),
});

/** The parsed file, or ConfigShapeError saying what is wrong with it. */
export function checkShape(data: unknown): ConfigData {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigShapeError('it does not hold a JSON object');
  }
  const result = FileShape.safeParse(data);
  if (result.success) return result.data as ConfigData;
  const issue = result.error.issues[0]!;
  const where = issue.path.map(String).join('.');
  throw new ConfigShapeError(
    issue.path.length <= 2
      ? '"profiles" is not an object of profile objects'
      : `"${where}" is not a string or a number`,
  );
}
