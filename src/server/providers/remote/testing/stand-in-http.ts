import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReceivedRequest } from './fal-replicate-test-context.ts';

/*
 * The HTTP plumbing the fal and Replicate stand-ins share, written for many requests in flight (a
 * benchmark runs one in its own process with thousands of jobs): JSON bodies are read up to a limit
 * (413 past it), uploads are never buffered (only counted and hashed), and nothing holds a timer per job.
 */

export interface StandInKnobs {
  /** Pause before every API answer (a provider far away, or slow). */
  latencyMs: number;
  /** Close the connection without answering after accepting the next N creates (the job exists). */
  dropAfterAccept: number;
  /** Answer the next N output downloads 503. */
  failDownloads: number;
}

/** What an upload received: its bytes are counted and hashed, never kept (a 150 MB input stays out of memory). */
export interface ReceivedUpload {
  bytes: number;
  sha256: string;
  /** Chunks as they arrived: a streamed upload arrives in many. */
  chunks: number;
  largestChunk: number;
  contentType: string;
}

export class BodyTooLarge extends Error {}

/** The request's body as JSON (undefined when empty); BodyTooLarge past `limit` bytes. */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new BodyTooLarge(`${size} > ${limit}`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Reads a body to its end, counting and hashing it, keeping none of it. */
export async function countUpload(req: IncomingMessage, contentType: string): Promise<ReceivedUpload> {
  const hash = createHash('sha256');
  const upload: ReceivedUpload = { bytes: 0, sha256: '', chunks: 0, largestChunk: 0, contentType };
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    hash.update(buffer);
    upload.bytes += buffer.length;
    upload.chunks++;
    upload.largestChunk = Math.max(upload.largestChunk, buffer.length);
  }
  upload.sha256 = hash.digest('hex');
  return upload;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': payload.length, ...headers });
  res.end(payload);
}

export function receivedOf(req: IncomingMessage, origin: string, body: unknown): ReceivedRequest {
  const url = new URL(req.url ?? '/', origin);
  return {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    body,
  };
}

/** Waits the configured latency (a sleep per request, not per job; aborted when the client goes away). */
export async function latency(req: IncomingMessage, knobs: StandInKnobs): Promise<void> {
  if (knobs.latencyMs <= 0) return;
  const gone = new AbortController();
  req.once('close', () => gone.abort());
  await sleep(knobs.latencyMs, undefined, { signal: gone.signal }).catch(() => {});
}

export interface Listening {
  server: Server;
  origin: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (a free port unless given one). */
export async function listen(
  handle: (req: IncomingMessage, res: ServerResponse, origin: string) => Promise<void>,
  port = 0,
): Promise<Listening> {
  let origin = '';
  const server = createServer((req, res) => {
    handle(req, res, origin).catch((error: unknown) => {
      if (error instanceof BodyTooLarge) return;
      if (!res.headersSent) sendJson(res, 500, { detail: String(error) });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
