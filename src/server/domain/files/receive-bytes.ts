import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { newBlobKey } from './file-ids.ts';
import { SNIFF_BYTES } from './sniff-media-type.ts';

/** What arrived: where it is kept, how long it is, its sha256 (hex) and its first bytes (for sniffing). */
export interface ReceivedBytes {
  storageKey: string;
  size: number;
  sha256: string;
  head: Buffer;
}

export interface ReceiveLimits {
  /** The most bytes accepted; one more is 413 and nothing is kept. */
  maxBytes: number;
  /** When set, the body must be exactly this long (a shorter one is 422). */
  exactBytes?: number | null;
  /** When set (hex), the bytes must hash to this (422 otherwise). */
  sha256?: string | null;
  /** What the bytes are called in messages. */
  label: string;
}

const HEAD_BYTES = SNIFF_BYTES;

/**
 * Streams a body into the blob store in constant memory, counting and hashing on the way. A body past
 * `maxBytes` is cut off at once (413); one shorter than declared or with another hash is refused after the
 * fact (422). Either way the blob is removed: nothing is kept from a refused upload.
 */
export async function receiveBytes(
  s: Services,
  source: Readable,
  limits: ReceiveLimits,
): Promise<ReceivedBytes> {
  const storageKey = newBlobKey('files');
  let seen = 0;
  const headChunks: Buffer[] = [];
  let headLength = 0;
  // Pulled by the store as it writes (nothing flows before), so memory stays one chunk deep.
  async function* guarded() {
    // destroyOnReturn false: a refused body is not torn down mid-request, so the 413 still reaches the client.
    for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > limits.maxBytes) {
        throw new AppError(
          'payload_too_large',
          `${limits.label} is longer than ${limits.maxBytes} bytes${
            limits.exactBytes ? ' (the size the session declared)' : ''
          }: nothing was kept.`,
          { details: { max_bytes: limits.maxBytes }, headers: { connection: 'close' } },
        );
      }
      if (headLength < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      yield chunk;
    }
  }
  let stored: { size: number; sha256: string };
  try {
    stored = await s.blobs.put(
      storageKey,
      Readable.from(guarded(), { objectMode: false }),
      'application/octet-stream',
    );
  } catch (error) {
    await s.blobs.delete(storageKey).catch(() => {});
    // The client went away before the end of its body: its failure, to answer (if anyone listens) as such.
    if (source.readableAborted && !(error instanceof AppError)) {
      throw new AppError('invalid_request', `${limits.label} was cut off before its end: nothing was kept.`);
    }
    throw error;
  }
  const refuse = async (message: string, field: string) => {
    await s.blobs.delete(storageKey).catch(() => {});
    return new AppError('invalid_request', `${message}: nothing was kept.`, {
      status: 422,
      details: { fields: [{ field, message, code: 'mismatch' }] },
    });
  };
  if (stored.size === 0) throw await refuse(`${limits.label} is empty`, 'size');
  if (limits.exactBytes && stored.size !== limits.exactBytes) {
    throw await refuse(
      `${limits.label} has ${stored.size} bytes but the session declared ${limits.exactBytes}`,
      'size',
    );
  }
  if (limits.sha256 && stored.sha256 !== limits.sha256) {
    throw await refuse(
      `${limits.label} hashes to sha256:${stored.sha256}, not the declared sha256:${limits.sha256}`,
      'hash',
    );
  }
  return { storageKey, size: stored.size, sha256: stored.sha256, head: Buffer.concat(headChunks) };
}

/**
 * A request's body as a Node stream: on the Node server, the socket's own IncomingMessage (no detour through
 * a web ReadableStream, which slows a large upload markedly); elsewhere (tests call the app in-process)
 * the web body. An absent body is an empty one.
 */
export function requestBodyStream(c: { env: unknown; req: { raw: Request } }): Readable {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming) return incoming;
  const body = c.req.raw.body;
  return body ? Readable.fromWeb(body as import('node:stream/web').ReadableStream) : Readable.from([]);
}
