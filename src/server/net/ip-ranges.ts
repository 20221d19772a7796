import { isIPv4, isIPv6 } from 'node:net';

/**
 * Classifies IP addresses as public or not. The tables follow the IANA special-purpose address registries
 * (RFC 6890 and successors). IPv6 is judged by an allow-list: only global unicast (2000::/3) can be public,
 * and the forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) are judged by that
 * address, so `::ffff:127.0.0.1` is exactly as loopback as `127.0.0.1`.
 */

interface Range4 {
  base: number;
  prefix: number;
  label: string;
}

function range4(cidr: string, label: string): Range4 {
  const [address, prefix] = cidr.split('/') as [string, string];
  const base = parseIPv4(address);
  if (base === null) throw new Error(`bad range ${cidr}`);
  return { base, prefix: Number(prefix), label };
}

const V4_RANGES: readonly Range4[] = [
  range4('0.0.0.0/8', 'a "this network" address'),
  range4('10.0.0.0/8', 'a private address'),
  range4('100.64.0.0/10', 'a shared (carrier-grade NAT) address'),
  range4('127.0.0.0/8', 'a loopback address'),
  range4('169.254.0.0/16', 'a link-local address'),
  range4('172.16.0.0/12', 'a private address'),
  range4('192.0.0.0/24', 'an IETF protocol assignment address'),
  range4('192.0.2.0/24', 'a documentation address'),
  range4('192.88.99.0/24', 'a 6to4 relay anycast address'),
  range4('192.168.0.0/16', 'a private address'),
  range4('198.18.0.0/15', 'a benchmarking address'),
  range4('198.51.100.0/24', 'a documentation address'),
  range4('203.0.113.0/24', 'a documentation address'),
  range4('224.0.0.0/4', 'a multicast address'),
  range4('255.255.255.255/32', 'a broadcast address'),
  range4('240.0.0.0/4', 'a reserved address'),
];

/** Parses dotted-decimal IPv4 (the only form `isIPv4` and the WHATWG URL parser's output use) to a 32-bit number. */
export function parseIPv4(text: string): number | null {
  if (!isIPv4(text)) return null;
  return text.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

/** Parses any textual IPv6 form (compressed, full, with a trailing dotted quad, with a `%zone`) to 8 groups. */
export function parseIPv6(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!isIPv6(address)) return null;
  let head = address;
  let tailV4: number[] = [];
  const lastColon = address.lastIndexOf(':');
  const maybeV4 = address.slice(lastColon + 1);
  if (maybeV4.includes('.')) {
    const v4 = parseIPv4(maybeV4);
    if (v4 === null) return null;
    tailV4 = [Math.floor(v4 / 0x10000), v4 % 0x10000];
    // Keep a trailing ':' only when it belongs to '::' (for example `::ffff:1.2.3.4` → `::ffff`, `::1.2.3.4` → `::`).
    head = address.slice(0, lastColon + 1);
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const toGroups = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const width = 8 - tailV4.length;
  let groups: number[];
  const gap = head.indexOf('::');
  if (gap === -1) {
    groups = toGroups(head);
  } else {
    const left = toGroups(head.slice(0, gap));
    const right = toGroups(head.slice(gap + 2));
    groups = [...left, ...new Array<number>(width - left.length - right.length).fill(0), ...right];
  }
  groups = [...groups, ...tailV4];
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff)) return null;
  return groups;
}

function inRange4(value: number, range: Range4): boolean {
  const size = 2 ** (32 - range.prefix);
  return Math.floor(value / size) === Math.floor(range.base / size);
}

function v4ToText(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

function describeV4(value: number): string | null {
  const range = V4_RANGES.find((r) => inRange4(value, r));
  if (!range) return null;
  return `${range.label} (${v4ToText(range.base)}/${range.prefix})`;
}

function embeddedV4(groups: number[], from: number): number {
  return (groups[from] ?? 0) * 0x10000 + (groups[from + 1] ?? 0);
}

function describeV6(g: number[]): string | null {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeros = (...values: number[]) => values.every((v) => v === 0);
  const via = (kind: string, v4: number) => {
    const reason = describeV4(v4);
    return reason ? `the ${kind} of ${v4ToText(v4)}, ${reason}` : null;
  };

  if (zeros(g0, g1, g2, g3, g4, g5, g6, g7)) return 'the unspecified address (::)';
  if (zeros(g0, g1, g2, g3, g4, g5, g6) && g7 === 1) return 'the loopback address (::1)';
  if (zeros(g0, g1, g2, g3, g4) && g5 === 0xffff) return via('IPv4-mapped form', embeddedV4(g, 6));
  if (zeros(g0, g1, g2, g3, g4, g5)) {
    // Deprecated IPv4-compatible form (::a.b.c.d): judge the IPv4 address, and never route it anyway.
    return via('IPv4-compatible form', embeddedV4(g, 6)) ?? 'a deprecated IPv4-compatible address (::/96)';
  }
  if (g0 === 0x64 && g1 === 0xff9b && zeros(g2, g3, g4, g5)) return via('NAT64 form', embeddedV4(g, 6));
  if (g0 === 0x2002) return via('6to4 form', embeddedV4(g, 1));
  if (g0 === 0x100 && zeros(g1, g2, g3)) return 'a discard-only address (100::/64)';
  if (g0 === 0x2001 && g1 === 0xdb8) return 'a documentation address (2001:db8::/32)';
  if (g0 === 0x2001 && g1 < 0x200) return 'an IETF protocol assignment address (2001::/23)';
  if (g0 === 0x3fff && g1 < 0x1000) return 'a documentation address (3fff::/20)';
  if ((g0 & 0xfe00) === 0xfc00) return 'a unique local address (fc00::/7)';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address (fe80::/10)';
  if ((g0 & 0xffc0) === 0xfec0) return 'a site-local address (fec0::/10)';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast address (ff00::/8)';
  if ((g0 & 0xe000) !== 0x2000) return 'a reserved address (outside global unicast 2000::/3)';
  return null;
}

/**
 * Why an address is not public, for example `a loopback address (127.0.0.0/8)`, or null when it is public.
 * Anything that is not a valid IP address is reported as not public too (fail closed).
 */
export function nonPublicReason(ip: string): string | null {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return describeV4(v4);
  const v6 = parseIPv6(ip);
  if (v6 !== null) return describeV6(v6);
  return 'not an IP address';
}
