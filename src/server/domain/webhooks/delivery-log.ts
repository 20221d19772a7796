import { DELIVERY_LOG_BODY_BYTES } from '../../../contract/jobs.ts';

export { DELIVERY_LOG_BODY_BYTES };

/** A body cut to its first DELIVERY_LOG_BODY_BYTES bytes, on a character boundary. */
export function bodyHead(body: string): { text: string; truncated: boolean } {
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length <= DELIVERY_LOG_BODY_BYTES) return { text: body, truncated: false };
  // Decoding a cut multi-byte character leaves U+FFFD at the end: dropped, so the text is honest.
  const text = bytes
    .subarray(0, DELIVERY_LOG_BODY_BYTES)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return { text, truncated: true };
}

/**
 * Headers of an answer as the log keeps them: at most 50, each value at most 1000 characters, so a
 * receiver cannot fill the database through us. A `set-cookie` is shown as withheld: it may be a session.
 */
export function loggedResponseHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {}).slice(0, 50)) {
    out[name] = name === 'set-cookie' ? '(withheld)' : value.slice(0, 1000);
  }
  return out;
}
