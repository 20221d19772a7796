import type { Readable } from 'node:stream';
import { Readable as ReadableStream } from 'node:stream';

/*
 * Streaming helpers for uploads to a provider's storage: an input file is read once, as a stream, and
 * never held whole in memory (a 150 MB video stays a 150 MB video on disk, not 200 MB of base64).
 */

/** How long an upload of `bytes` may take: a minute, or longer at a slow 512 KB/s. */
export function uploadTimeoutMs(bytes: number | null): number {
  return Math.max(60_000, Math.ceil((bytes ?? 0) / 512 / 1024) * 1000);
}

/**
 * Cuts a stream into consecutive parts of at most `partSize` bytes, each a stream of its own, without
 * copying: a part ends inside a chunk by slicing it, and the rest opens the next part. Parts must be
 * read in order, each to its end, before asking for the next.
 */
export function streamParts(source: Readable, partSize: number) {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  let leftover: Buffer | null = null;
  let ended = false;

  async function nextChunk(): Promise<Buffer | null> {
    if (leftover) {
      const chunk = leftover;
      leftover = null;
      return chunk;
    }
    if (ended) return null;
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      return null;
    }
    return Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
  }

  return {
    /** Whether any bytes are left (reads ahead one chunk at most). */
    async more(): Promise<boolean> {
      const chunk = await nextChunk();
      if (chunk) leftover = chunk;
      return chunk !== null;
    },
    /** The next part: up to `partSize` bytes. */
    next(): Readable {
      let remaining = partSize;
      return ReadableStream.from(
        (async function* () {
          while (remaining > 0) {
            let chunk = await nextChunk();
            if (!chunk) return;
            if (chunk.length > remaining) {
              leftover = chunk.subarray(remaining);
              chunk = chunk.subarray(0, remaining);
            }
            remaining -= chunk.length;
            yield chunk;
          }
        })(),
        { objectMode: false },
      );
    },
  };
}

/**
 * A multipart/form-data body with one file field, as a stream: the part's header, the file's bytes as
 * they are read, the closing boundary. undici's FormData takes only a Blob, which would mean reading
 * the whole file first. Its length is known when the file's size is.
 */
export function multipartFileBody(
  field: string,
  file: { fileName: string; contentType: string; size: number | null },
  bytes: Readable,
): { body: Readable; contentType: string; length: number | null } {
  const boundary = `----media-console-${crypto.randomUUID()}`;
  // A file name is a plain name already; quotes and line breaks would break the header.
  const name = file.fileName.replace(/["\r\n\\]/g, '_');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n` +
      `Content-Type: ${file.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = ReadableStream.from(
    (async function* () {
      yield head;
      for await (const chunk of bytes) yield chunk as Buffer;
      yield tail;
    })(),
    { objectMode: false },
  );
  return {
    body,
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: file.size === null ? null : head.length + file.size + tail.length,
  };
}

/** The last `max` characters of a provider's log (it resends the whole log on every poll). */
export function logTail(text: string, max = 4096): string {
  if (text.length <= max) return text;
  const cut = text.slice(-max);
  const newline = cut.indexOf('\n');
  return newline >= 0 && newline < 200 ? cut.slice(newline + 1) : cut;
}

/**
 * Remembers the signatures of accepted webhook deliveries for as long as their timestamps are valid, so
 * the same signed bytes sent twice (a replay inside the tolerance) are refused. A provider's own retry
 * carries a new timestamp and so a new signature. Bounded: the oldest are forgotten first.
 */
export function createReplayGuard(toleranceMs: number, max = 50_000) {
  const seen = new Map<string, number>();
  return {
    /** False when `signature` was already accepted. */
    accept(signature: string, now = Date.now()): boolean {
      for (const [key, at] of seen) {
        if (now - at <= 2 * toleranceMs && seen.size < max) break;
        seen.delete(key);
      }
      if (seen.has(signature)) return false;
      seen.set(signature, now);
      return true;
    },
  };
}
