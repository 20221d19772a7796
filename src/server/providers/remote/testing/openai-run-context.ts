import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { ToolKey } from '../../../../contract/common.ts';
import type { ModelDefinition, ProviderOffer } from '../../../domain/catalog/types.ts';
import type { RunContext, RunInput } from '../../../domain/jobs/provider.ts';

/**
 * Test support shared by the OpenAI and ElevenLabs adapter tests: a RunInput for one provider model,
 * a RunContext whose `readInput` serves small in-memory files and whose `download` fetches for real,
 * and the request log of the protocol servers.
 */
export function runInput(
  provider: string,
  providerModelId: string,
  tool: ToolKey,
  body: Record<string, unknown>,
  providerJobId?: string,
): RunInput {
  const offer: ProviderOffer = {
    provider,
    providerModelId,
    pricingId: `${provider}:${providerModelId}`,
    unit: 'job',
    unitPrice: 1,
    typicalUnits: 1,
    optionsSchema: {},
  };
  const model: ModelDefinition = {
    id: providerModelId,
    tool,
    displayName: providerModelId,
    description: 'test model',
    offers: [offer],
  };
  return { model, offer, body, providerJobId };
}

export interface TestFile {
  body: Buffer;
  contentType: string;
}

export function testContext(
  files: Record<string, TestFile> = {},
  signal = new AbortController().signal,
): RunContext {
  return {
    signal,
    progress: () => {},
    async readInput(url) {
      const file = files[url];
      if (!file) throw new Error(`no test file at ${url}`);
      return file;
    },
    async download(url) {
      const response = await fetch(url, { signal });
      if (!response.ok) throw new Error(`download of ${url} answered ${response.status}`);
      return {
        body: Buffer.from(await response.arrayBuffer()),
        contentType: response.headers.get('content-type') ?? '',
      };
    },
  };
}

/** A multipart field as the servers saw it: text, or a file. */
export type FormValue = string | { name: string; type: string; bytes: Buffer };

/** One request a protocol server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  json?: Record<string, unknown>;
  form?: Record<string, FormValue[]>;
  /** The client went away before the answer (an aborted call). */
  aborted: boolean;
}

/** Reads and records a request: its JSON or multipart body, and whether the client hung up. */
export async function record(
  req: IncomingMessage,
  res: ServerResponse,
  base: string,
): Promise<RecordedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const url = new URL(req.url ?? '/', base);
  const recorded: RecordedRequest = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    headers: req.headers,
    aborted: false,
  };
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) recorded.json = JSON.parse(raw.toString('utf8'));
  if (type.startsWith('multipart/form-data')) {
    const data = await new Response(raw, { headers: { 'content-type': type } }).formData();
    const form: Record<string, FormValue[]> = {};
    for (const [name, value] of data.entries()) {
      const entry: FormValue =
        typeof value === 'string'
          ? value
          : { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
      form[name] = [...(form[name] ?? []), entry];
    }
    recorded.form = form;
  }
  res.on('close', () => {
    if (!res.writableEnded) recorded.aborted = true;
  });
  return recorded;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
