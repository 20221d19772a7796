import type { Context } from 'hono';
import { requestBodyStream } from '../domain/files/receive-bytes.ts';
import { AppError } from '../errors.ts';
import { requestHeader } from './request-header.ts';

/** JSON bodies above this size are refused with 413, however they are framed (Content-Length or chunked). */
export const MAX_JSON_BODY_BYTES = 1_048_576;

/** Deeper JSON than any request of the interface needs; deeper values would overflow JSON.stringify later. */
export const MAX_JSON_DEPTH = 32;

/** NUL, which PostgreSQL text cannot hold, and UTF-16 surrogates that are not part of a pair. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for.
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isUnsafeText(value: string): boolean {
  return UNSAFE_TEXT.test(value);
}

const tooLarge = () =>
  new AppError('payload_too_large', `The body is larger than ${MAX_JSON_BODY_BYTES} bytes.`, {
    details: { max_bytes: MAX_JSON_BODY_BYTES },
  });

function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * Reads at most MAX_JSON_BODY_BYTES as the body streams in; one byte more is 413 and the rest is never kept.
 * The server closes that connection once the 413 is out without resetting it (node-server.ts's
 * ClosingResponse): a reset can throw away the 413 before the client reads it.
 */
async function readLimited(c: Context): Promise<string> {
  if (Number(requestHeader(c, 'content-length') ?? '0') > MAX_JSON_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let length = 0;
  // destroyOnReturn false: the request is not torn down mid-read, so the 413 still reaches the client.
  for await (const chunk of requestBodyStream(c).iterator({ destroyOnReturn: false }) as AsyncIterable<
    Buffer | Uint8Array
  >) {
    length += chunk.length;
    if (length > MAX_JSON_BODY_BYTES) throw tooLarge();
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, length).toString('utf8');
}

/** How deep a parsed JSON value nests, counted without recursion (a 1 MiB body can nest 500k levels). */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The request body as a JSON object: 415 unless it is declared JSON, 413 past the limit, 400 when it is not
 * a JSON object, 422 when it nests deeper than MAX_JSON_DEPTH.
 */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  const contentType = requestHeader(c, 'content-type');
  const unsupported = () =>
    new AppError('unsupported_media_type', 'Send the body as JSON, with Content-Type: application/json.');
  if (contentType !== undefined && !isJsonMediaType(contentType)) throw unsupported();
  const text = await readLimited(c);
  if (text.trim() !== '' && contentType === undefined) throw unsupported();
  let value: unknown;
  try {
    value = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new AppError('invalid_request', 'The body is not valid JSON: send a JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('invalid_request', 'The body must be a JSON object.');
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    throw new AppError('invalid_request', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
      status: 422,
      details: { fields: [{ field: '(body)', message: 'nested too deeply', code: 'too_deep' }] },
    });
  }
  return value as Record<string, unknown>;
}

/**
 * Dotted paths of every string (value or key) holding NUL or a lone surrogate, under `prefix`. Such text
 * cannot be stored (PostgreSQL refuses it) nor be a real name, id or prompt, so it is refused up front.
 */
export function unsafeTextFields(value: unknown, prefix: string): string[] {
  const found: string[] = [];
  const stack: Array<[unknown, string]> = [[value, prefix]];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      if (isUnsafeText(item)) found.push(at || '(body)');
      continue;
    }
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      const path = at ? `${at}.${key}` : key;
      if (isUnsafeText(key)) found.push(path);
      else stack.push([child, path]);
    }
  }
  return found.sort();
}

/** 422 naming each field whose text holds NUL or a lone surrogate; nothing when all text is clean. */
export function refuseUnsafeText(value: unknown, prefix: string): void {
  const fields = unsafeTextFields(value, prefix).map((field) => ({
    // Shown escaped, so the message itself stays printable.
    field: JSON.stringify(field).slice(1, -1),
    message: 'must not contain NUL or unpaired surrogate characters',
    code: 'invalid_string',
  }));
  if (fields.length === 0) return;
  throw new AppError(
    'invalid_request',
    `Invalid request: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`,
    { status: 422, details: { fields } },
  );
}
