import { hash } from 'node:crypto';

/** A strong entity tag for a body: 27 base64url characters of its SHA-256 (160 bits, ample for identity). */
export function entityTag(body: string | Uint8Array): string {
  return `"${hash('sha256', body, 'base64url').slice(0, 27)}"`;
}

/**
 * If-None-Match (RFC 9110 13.1.2): true when `*` is listed (a current representation exists) or any listed
 * tag equals one of `current` by the weak comparison (a W/ prefix on either side is ignored).
 */
export function noneMatchHits(header: string | undefined, current: readonly string[]): boolean {
  if (!header) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const ours = current.map(opaque);
  for (const raw of header.split(',')) {
    const tag = raw.trim();
    if (tag === '*' || ours.includes(opaque(tag))) return true;
  }
  return false;
}
