// Parses CSV with Python's csv module: an independent reader, so our CSV is checked by something we did not write.
import { execa } from 'execa';

const SCRIPT = `
import csv, json, sys
rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8-sig')))
json.dump(rows, sys.stdout)
`;

export async function parseCsvWithPython(file: string): Promise<string[][]> {
  const r = await execa('python3', ['-c', SCRIPT, file]);
  return JSON.parse(r.stdout) as string[][];
}
