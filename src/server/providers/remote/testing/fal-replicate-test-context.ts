import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { offer } from '../../../domain/catalog/models/offer.ts';
import type { PriceUnit } from '../../../domain/catalog/types.ts';
import type { RunContext, RunInput } from '../../../domain/jobs/provider.ts';

/** Test support shared by the fal and Replicate adapter tests: a RunContext and RunInputs. */

export interface StoredFile {
  body: Buffer;
  contentType: string;
}

/**
 * A RunContext whose `readInput` reads `files` (by URL) and whose `download` fetches for real, from
 * the protocol server that made the outputs.
 */
export function testContext(files: Record<string, StoredFile> = {}, signal = new AbortController().signal) {
  const progress: Array<[number, string]> = [];
  const submitted: Array<[string, string]> = [];
  const context: RunContext = {
    signal,
    progress: (fraction, message) => progress.push([fraction, message]),
    async readInput(url) {
      const file = files[url];
      if (!file) throw new Error(`no test file at ${url}`);
      return file;
    },
    async submitted(providerJobId, providerStatus) {
      submitted.push([providerJobId, providerStatus]);
    },
    async download(url) {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`download of ${url} answered ${response.status}`);
      return {
        body: Buffer.from(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      };
    },
  };
  return { context, progress, submitted };
}

/** A job for one provider's model, as the runner hands it to the provider. */
export function runInput(
  tool: RunInput['model']['tool'],
  provider: string,
  providerModelId: string,
  body: Record<string, unknown>,
  unit: PriceUnit = 'image',
): RunInput {
  const modelOffer = offer(provider, providerModelId, unit, 1, 5);
  return {
    model: { id: 'test-model', tool, displayName: 'Test', description: 'Test', offers: [modelOffer] },
    offer: modelOffer,
    body,
  };
}

/** One request a protocol server received. */
export interface ReceivedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface JsonServer {
  url: string;
  received: ReceivedRequest[];
  /** Serves some requests before their body is read (streamed uploads); answers whether it did. */
  intercept(handler: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>): void;
  close(): Promise<void>;
}

export type Reply = { status: number; json?: unknown; bytes?: Buffer; headers?: Record<string, string> };

/**
 * An HTTP server on 127.0.0.1 (a free port) that records every request with its parsed JSON body and
 * answers what `handle` returns.
 */
export async function startJsonServer(
  handle: (request: ReceivedRequest, origin: string) => Reply | 'drop' | Promise<Reply | 'drop'>,
): Promise<JsonServer> {
  const received: ReceivedRequest[] = [];
  let origin = '';
  let intercept: (req: IncomingMessage, res: ServerResponse) => Promise<boolean> = async () => false;
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    if (await intercept(req, res)) return;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', origin);
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      const request = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body,
      };
      received.push(request);
      const reply = await handle(request, origin);
      // Accepted, then the connection is lost before the answer (the client cannot tell).
      if (reply === 'drop') return void res.destroy();
      const payload =
        reply.bytes ?? (reply.json === undefined ? undefined : Buffer.from(JSON.stringify(reply.json)));
      res.writeHead(reply.status, {
        ...(reply.json === undefined ? {} : { 'content-type': 'application/json' }),
        ...reply.headers,
      });
      res.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    received,
    intercept: (handler) => {
      intercept = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
