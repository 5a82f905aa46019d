// The leanest Node script that does what `feed --max 1 -f jsonl` does: one request with Node's own fetch,
// the first record printed as a JSON line. startup.mjs measures the CLI's one page against it.
// Usage: node bench/lean-page.mjs <base-url> <key>
const [base, key] = process.argv.slice(2);
const res = await fetch(`${base}/v1/recalls/feed?limit=1`, { headers: { 'x-api-key': key } });
const body = await res.json();
process.stdout.write(`${JSON.stringify(body.data[0])}\n`);
