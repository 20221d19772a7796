const MAX_LENGTH = 2048;
/** Where a sign-in lands when it has nowhere better to go. */
export const HOME = '/';

/**
 * Turns a `redirect` search value into a path inside this app, or null. Only same-origin paths
 * pass: no scheme, no protocol-relative `//host`, no backslash tricks (`/\host` is `//host` to a
 * browser), no control characters. The sign-in page itself is refused (it would loop).
 */
export function sanitizeRedirect(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const base = 'http://console.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  if (url.pathname === '/sign-in' || url.pathname.startsWith('/sign-in/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
