/**
 * IP address and CIDR syntax, for the contract (the console validates with it too, so no `node:net`).
 * The server matches addresses with Node's BlockList (key-restrictions.ts); this only says what parses.
 */

const IPV4_OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`);
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;

export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}

/** IPv6 in any standard text form: full, `::`-compressed, or ending in a dotted IPv4 address. */
export function isIPv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const parts = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  let groups = 0;
  for (const [index, part] of parts.entries()) {
    if (index === parts.length - 1 && isIPv4(part)) groups += 2;
    else if (IPV6_GROUP.test(part)) groups += 1;
    else return false;
  }
  return halves.length === 2 ? groups < 8 : groups === 8;
}

/** 4 or 6 for an address, 0 for anything else. */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (isIPv4(text)) return 4;
  return isIPv6(text) ? 6 : 0;
}

/** Whether `entry` is an address or a CIDR whose prefix fits its family (/0-32 or /0-128). */
export function isIpOrCidr(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = address ? ipFamily(address) : 0;
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}
