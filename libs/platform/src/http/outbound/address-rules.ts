import { isIP } from 'node:net';

/**
 * Which addresses a server-side request may reach (docs/security/outbound-requests.md): public
 * unicast only. Pure; the guard (`OutboundHttp`) applies it to every address a host resolves to.
 */

/** IPv4 blocks that are not the public internet (IANA special-purpose registry). */
const IPV4_BLOCKED: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this" network; 0.0.0.0 reaches the local host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/** IPv6 blocks (the forms carrying an IPv4 address are checked by that address instead). */
const IPV6_BLOCKED: readonly [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible (deprecated)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 segment ids
  ['fc00::', 7], // unique local, AWS metadata fd00:ec2::254
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const ipv4Number = (dotted: string): number =>
  dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);

const inIpv4Block = (n: number, [base, prefix]: readonly [string, number]): boolean =>
  Math.floor(n / 2 ** (32 - prefix)) === Math.floor(ipv4Number(base) / 2 ** (32 - prefix));

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a dotted tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4Number(dotted[1]);
    text = `${text.slice(0, dotted.index)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === null ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

const inIpv6Block = (groups: number[], [base, prefix]: readonly [string, number]): boolean => {
  const net = ipv6Groups(base);
  for (let bit = 0; bit < prefix; bit += 16) {
    const width = Math.min(16, prefix - bit);
    const shift = 16 - width;
    if (groups[bit / 16] >> shift !== net[bit / 16] >> shift) return false;
  }
  return true;
};

const dottedOf = (hi: number, lo: number): string => [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');

/**
 * The IPv4 address an IPv6 one carries: mapped `::ffff:a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64
 * `64:ff9b::a.b.c.d`, 6to4 `2002:aabb:ccdd::`; null for any other.
 */
function embeddedIpv4(g: number[]): string | null {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return dottedOf(g[6], g[7]);
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return dottedOf(g[6], g[7]);
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return dottedOf(g[6], g[7]);
  if (g[0] === 0x2002) return dottedOf(g[1], g[2]);
  return null;
}

/** A private, loopback, link-local, metadata or otherwise non-public address; anything not an address too. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return IPV4_BLOCKED.some((block) => inIpv4Block(ipv4Number(address), block));
  if (family !== 6) return true;
  const groups = ipv6Groups(address);
  const v4 = embeddedIpv4(groups);
  if (v4 !== null) return isPrivateAddress(v4);
  return IPV6_BLOCKED.some((block) => inIpv6Block(groups, block));
}

/**
 * An IPv4 address in one of the spellings `inet_aton` (and so getaddrinfo) accepts: 1-4 parts,
 * each decimal, octal (`0177`) or hex (`0x7f`), the last filling the remaining bytes (`127.1`,
 * `2130706433`, `0x7f000001`). Null for anything else. URL parsing normalises these for http(s);
 * the guard checks again so no name reaches the resolver in a numeric disguise.
 */
export function legacyIpv4(host: string): string | null {
  const text = host.endsWith('.') ? host.slice(0, -1) : host;
  const parts = text.split('.');
  if (parts.length === 0 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) value = part.length === 1 ? 0 : parseInt(part.slice(1), 8);
    else if (/^[1-9][0-9]*$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255) || last >= 256 ** (4 - values.length)) return null;
  const n = values.reduce((acc, v, i) => acc + v * 256 ** (3 - i), 0) + last;
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** `localhost` and its subdomains (RFC 6761: always the local host, whatever a resolver says). */
export function isLocalName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
