import type { IncomingMessage, RequestListener } from 'node:http';
import { type EndpointDef, toColonPath } from '../../contract/endpoint.ts';
import { nodeHeader } from './request-header.ts';
import { type RequestRecorder, requestIdFor, SECURITY_HEADERS } from './request-record.ts';

/** An answer already in memory. The fast path adds the request id, the security headers and the length. */
export interface FastAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
}

/**
 * Answers a GET from memory, synchronously, or leaves it (undefined) to the framework, which answers every
 * case the handler does not know for certain: a cold cache, a key not looked up lately, anything unusual.
 * `param` is the path's last segment for an endpoint whose path ends in one (`/v2/jobs/{id}`), else ''.
 */
export type FastHandler = (req: IncomingMessage, param: string) => FastAnswer | undefined;

interface Entry {
  /** The route's pattern, as the framework names it in logs and metrics. */
  route: string;
  handler: FastHandler;
}

/** Path segments the fast path takes as they are: anything else (escapes, dots) is the framework's to decode. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * A fast path ahead of the framework for the GETs pollers repeat most (a finished job, the price catalog),
 * answered from caches the routes keep anyway. Behind Hono and its Node adapter a small answer cost twice
 * the CPU of a bare node:http server; here it is parsed, checked and written in one synchronous step. A
 * handler answers only what the full path would answer the same (tests compare the two); the rest passes.
 */
export class FastPath {
  private readonly exact = new Map<string, Entry>();
  private readonly withParam = new Map<string, Entry>();

  /** Serves `endpoint` (a GET whose path is fixed, or ends in one `{param}`) through `handler`. */
  add(endpoint: EndpointDef, handler: FastHandler): void {
    if (endpoint.method !== 'GET') throw new Error(`the fast path serves GETs only, not ${endpoint.method}`);
    const entry = { route: toColonPath(endpoint.path), handler };
    const param = endpoint.path.match(/^(.*\/)\{\w+\}$/);
    if (param) this.withParam.set(param[1]!, entry);
    else if (!endpoint.path.includes('{')) this.exact.set(endpoint.path, entry);
    else throw new Error(`the fast path cannot serve ${endpoint.path}`);
  }

  /** The server's request listener: this fast path first, `fallback` (the framework's) for everything else. */
  listener(fallback: RequestListener, record: RequestRecorder): RequestListener {
    return (req, res) => {
      const started = performance.now();
      const found = req.method === 'GET' ? this.find(req.url ?? '') : undefined;
      const answer = found && this.answer(found.entry, req, found.param);
      if (!found || !answer) {
        fallback(req, res);
        return;
      }
      const requestId = requestIdFor(nodeHeader(req, 'x-request-id'));
      const { status, body } = answer;
      const headers: Record<string, string | number> = {
        'x-request-id': requestId,
        ...SECURITY_HEADERS,
        ...answer.headers,
      };
      if (body !== null)
        headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
      res.writeHead(status, headers);
      res.end(body ?? undefined);
      const ms = Math.round((performance.now() - started) * 10) / 10;
      record({ requestId, method: 'GET', path: found.path, route: found.entry.route, status, ms });
    };
  }

  private find(url: string): { entry: Entry; path: string; param: string } | undefined {
    // A query is the framework's to validate; so are encoded characters.
    if (url.includes('?')) return undefined;
    const exact = this.exact.get(url);
    if (exact) return { entry: exact, path: url, param: '' };
    const slash = url.lastIndexOf('/');
    const entry = this.withParam.get(url.slice(0, slash + 1));
    const param = url.slice(slash + 1);
    if (!entry || !PLAIN_SEGMENT.test(param)) return undefined;
    return { entry, path: url, param };
  }

  /** A handler that throws leaves the request to the framework, which answers (or reports) it properly. */
  private answer(entry: Entry, req: IncomingMessage, param: string): FastAnswer | undefined {
    try {
      return entry.handler(req, param);
    } catch {
      return undefined;
    }
  }
}
