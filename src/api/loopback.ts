// Whether a host is this machine: the only place a key may travel over plain http.

/**
 * `localhost` (not `localhost.`: a name with its dot may go to DNS, which need not answer loopback), 127.0.0.0/8, and IPv6's loopback however written: `::1`, `0:0:0:0:0:0:0:1`, and
 * 127.x mapped into IPv6 (`::ffff:127.0.0.1`, which URL() writes `[::ffff:7f00:1]`). With or without brackets, any case.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (host === 'localhost' || isLoopbackV4(host)) return true;
  const groups = ipv6Groups(host);
  if (groups === undefined) return false;
  const zeros = (n: number) => groups.slice(0, n).every((g) => g === 0);
  // ::1, or ::ffff:a.b.c.d with a = 127.
  return (zeros(7) && groups[7] === 1) || (zeros(5) && groups[5] === 0xffff && groups[6]! >> 8 === 127);
}

function isLoopbackV4(host: string): boolean {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return parts !== null && parts[1] === '127' && parts.slice(2).every((p) => Number(p) <= 255);
}

/** An IPv6 address's eight 16-bit groups (`::` expanded, a dotted IPv4 tail as two), or undefined when it is none. */
function ipv6Groups(host: string): number[] | undefined {
  let text = host;
  const tail = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const octets = tail[2]!.split('.').map(Number);
    if (octets.some((o) => o > 255)) return undefined;
    text = `${tail[1]}${((octets[0]! << 8) | octets[1]!).toString(16)}:${((octets[2]! << 8) | octets[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string) => (s === '' ? [] : s.split(':'));
  const head = part(halves[0]!);
  const rest = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => Number.parseInt(g, 16));
}
