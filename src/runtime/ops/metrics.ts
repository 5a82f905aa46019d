// --metrics-file: the run's numbers as a Prometheus textfile (node_exporter's textfile collector), written atomically.
import { promises as fs, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.js';

export interface Sample {
  labels?: Record<string, string>;
  value: number;
}

export interface Metric {
  name: string;
  help: string;
  type: 'gauge';
  samples: Sample[];
}

/** The one family a run carries over from the file it replaces. */
export const LAST_SUCCESS = 'recall_feed_last_success_timestamp_seconds';

/** A label value as the exposition format wants it: backslash, double quote and line feed escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function sampleLine(name: string, s: Sample): string {
  const labels = Object.entries(s.labels ?? {});
  const set = labels.length ? `{${labels.map(([k, v]) => `${k}="${labelValue(v)}"`).join(',')}}` : '';
  const value = Number.isFinite(s.value) ? String(s.value) : 'NaN';
  return `${name}${set} ${value}`;
}

/** The exposition text: HELP and TYPE once per family, then its samples; families in the order given. */
export function renderMetrics(metrics: readonly Metric[]): string {
  const out: string[] = [];
  for (const m of metrics) {
    if (m.samples.length === 0) continue;
    out.push(`# HELP ${m.name} ${m.help}`, `# TYPE ${m.name} ${m.type}`);
    for (const s of m.samples) out.push(sampleLine(m.name, s));
  }
  return `${out.join('\n')}\n`;
}

/** `{command="sync",source="us_cpsc"}` → its labels; a line this file did not write is skipped. */
function parseLabels(text: string): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
  let at = 0;
  re.lastIndex = 0;
  while (at < text.length) {
    const m = re.exec(text);
    if (m === null) break;
    labels[m[1] as string] = (m[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    at = re.lastIndex;
  }
  return at === text.length ? labels : undefined;
}

/**
 * The last-success samples the file holds now: a failed run keeps them, and one command's run keeps the
 * other commands' (one file may serve several jobs).
 */
export async function previousSuccesses(file: string): Promise<Sample[]> {
  let text: string;
  try {
    // Only a regular file: reading a named pipe would wait for a writer for ever.
    if (!(await fs.stat(file)).isFile()) return [];
    text = await fs.readFile(file, 'utf8');
  } catch {
    return [];
  }
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${LAST_SUCCESS}{`)) continue;
    const close = line.lastIndexOf('} ');
    if (close < 0) continue;
    const labels = parseLabels(line.slice(LAST_SUCCESS.length + 1, close));
    const value = Number(line.slice(close + 2));
    if (labels && Number.isFinite(value)) samples.push({ labels, value });
  }
  return samples;
}

/**
 * Temporary file (a dot name, which the collector's *.prom glob skips), fsync, rename: the collector never
 * reads half a file. Mode 0644 whatever the umask: node_exporter runs as a user of its own, and the file holds
 * no secret.
 */
export async function writeMetricsFile(file: string, metrics: readonly Metric[]): Promise<void> {
  await writeFileAtomic(metricsTarget(file), renderMetrics(metrics), 0o644);
}

/**
 * The file a rename may replace: a link's target (the link stays a link), a regular file, or a new one. A device, a
 * pipe or a folder is never renamed over (`/dev/full` would become a file).
 */
function metricsTarget(file: string): string {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    // A link to a file not made yet: that file.
    const link = lstatSync(file, { throwIfNoEntry: false });
    return link?.isSymbolicLink() ? path.resolve(path.dirname(file), readlinkSync(file)) : file;
  }
  if (!statSync(real).isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: 'EINVAL' });
  return real;
}
