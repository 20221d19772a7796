import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { nonPublicReason } from './ip-ranges.ts';

/** Which URLs the server may fetch (input files, webhooks). Built once from the configuration. */
export interface UrlPolicy {
  /** Lower-case ASCII (punycode) domains; a domain blocks itself and every subdomain. */
  blockedDomains: readonly string[];
  /** ALLOW_PRIVATE_NETWORK: loopback, private and other non-public addresses are allowed (local development). */
  allowPrivateNetwork: boolean;
}

export function urlPolicyFromConfig(
  config: Pick<Config, 'BLOCKED_DOMAINS' | 'ALLOW_PRIVATE_NETWORK'>,
): UrlPolicy {
  return {
    blockedDomains: normalizeDomains(config.BLOCKED_DOMAINS),
    allowPrivateNetwork: config.ALLOW_PRIVATE_NETWORK,
  };
}

function normalizeDomains(domains: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of domains) {
    const trimmed = normalizeHost(raw.trim());
    if (!trimmed) continue;
    // Unicode names are compared in their punycode form, which is what the URL parser gives for hosts.
    out.add(isIP(trimmed) ? trimmed : domainToASCII(trimmed) || trimmed);
  }
  return [...out];
}

/** Host without IPv6 brackets, lower case, without the trailing dots of a fully qualified name. */
export function normalizeHost(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.+$/, '');
}

/**
 * The URL as it may appear in an error message: without `user:password@`, and with the query string and
 * fragment replaced by `?…` (they often carry signatures or tokens).
 */
export function describeUrl(url: URL | string): string {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return JSON.stringify(String(url).slice(0, 200));
  }
  const suffix = parsed.search || parsed.hash ? '?…' : '';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol}…`;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${suffix}`;
}

/** Parses a URL to fetch. Malformed URLs and schemes other than http: and https: are a 422. */
export function parseFetchUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : new URL(input.href);
  } catch {
    throw new AppError('invalid_request', `${describeUrl(String(input))} is not a valid URL`, {
      status: 422,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError(
      'invalid_request',
      `${describeUrl(url)} cannot be fetched: only http: and https: URLs are supported`,
      { status: 422 },
    );
  }
  return url;
}

/** The blocked domain that covers `host` (itself or a parent domain), or null. */
export function blockedDomainOf(host: string, policy: UrlPolicy): string | null {
  const name = normalizeHost(host);
  for (const domain of policy.blockedDomains) {
    if (name === domain || (!isIP(name) && name.endsWith(`.${domain}`))) return domain;
  }
  return null;
}

/**
 * Refuses a non-public IP address (403 `forbidden`) unless the policy allows the private network.
 * `url` only names the URL in the message.
 */
export function assertAddressAllowed(ip: string, policy: UrlPolicy, url?: URL): void {
  if (policy.allowPrivateNetwork) return;
  const address = normalizeHost(ip);
  const reason = nonPublicReason(address);
  if (reason === null) return;
  const host = url ? normalizeHost(url.hostname) : address;
  const what = host === address ? address : `${url?.hostname} resolves to ${address}, which`;
  throw new AppError(
    'forbidden',
    `${url ? `URL ${describeUrl(url)}` : `Address ${address}`} is not allowed: ${what} is ${reason}`,
    { details: { url: url ? describeUrl(url) : undefined, address, reason } },
  );
}

/**
 * The checks that need no network: scheme (422), blocked domain (403) and, for IP literals in any notation
 * the WHATWG URL parser accepts (`0177.0.0.1`, `2130706433`, `[::ffff:7f00:1]`...), the address (403).
 * Host names still have to be resolved and every address checked with `assertAddressAllowed` at connect
 * time; `safeFetch` does that. Returns the parsed URL.
 */
export function assertUrlAllowed(
  input: string | URL,
  policy: UrlPolicy,
  checkAddress: (ip: string, url: URL) => void = (ip, url) => assertAddressAllowed(ip, policy, url),
): URL {
  const url = parseFetchUrl(input);
  const host = normalizeHost(url.hostname);
  const domain = blockedDomainOf(host, policy);
  if (domain !== null) {
    throw new AppError(
      'forbidden',
      `URL ${describeUrl(url)} is not allowed: ${host === domain ? `${domain} is` : `${host} is under`} a blocked domain`,
      { details: { url: describeUrl(url), blocked_domain: domain } },
    );
  }
  if (isIP(host)) checkAddress(host, url);
  return url;
}
