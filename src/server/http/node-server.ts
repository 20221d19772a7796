import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import { answerClientErrors } from './client-errors.ts';
import { closeAfterAnswer } from './linger.ts';
import { requestIdFor, SECURITY_HEADERS } from './request-record.ts';
import { errorBody } from './respond.ts';

/**
 * A client has this long to send its request line and headers (a few hundred bytes). Node's 60 s, checked
 * every 30 s, held a slow-headers client up to 90 s before its 408.
 */
export const HEADERS_TIMEOUT_MS = 10_000;

/**
 * The whole request, body included, must arrive within this (the handler's own time does not count). The
 * largest body is an upload of up to 200 MB through PUT /v2/files/upload/{id}: an hour lets it through at
 * 0.45 Mbit/s, where Node's 300 s would cut it off below 5.4 Mbit/s.
 */
export const REQUEST_TIMEOUT_MS = 3_600_000;

/** How often Node looks for connections past those timeouts: the 408 comes at most this late. */
const TIMEOUT_CHECK_MS = 1_000;

type FetchHandler = Parameters<typeof getRequestListener>[0];

export interface ApiServerOptions {
  /** The name the framework uses for a request without Host (HTTP/1.0). */
  hostname?: string;
  /** A listener of its own in front of the framework's (the fast path). */
  ahead?: (framework: RequestListener) => RequestListener;
  headersTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/**
 * The node:http server for an app: every answer it gives, including those Node and the Node adapter would
 * give by themselves (unparsable requests, a path or Host the adapter refuses, no Host, an unknown Expect,
 * CONNECT, timeouts), carries the error envelope and a request id; timeouts fit an API; and a connection
 * answered before its body arrived is closed without a reset, so the client reads the answer.
 */
export function createApiServer(fetch: FetchHandler, options: ApiServerOptions = {}): Server {
  const { ahead = (framework: RequestListener) => framework } = options;
  const framework = getRequestListener(fetch, {
    hostname: options.hostname,
    // The adapter's own 400 (a backslash in the path, a bad Host or request target) and 500 were bare.
    errorHandler: (error) =>
      error instanceof RequestError
        ? errorResponse(400, 'invalid_request', `The request is not valid: ${error.message}.`)
        : errorResponse(500, 'internal_error', 'Something went wrong on our side.'),
  });
  const listener = ahead(framework);
  const server = createServer(
    {
      ServerResponse: ClosingResponse,
      headersTimeout: options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      requestTimeout: options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
      // Node answered a missing Host with a bare 400: checked below instead.
      requireHostHeader: false,
    },
    (req, res) => {
      // RFC 9112 3.2: an HTTP/1.1 request without Host is a 400.
      if (req.headers.host === undefined && req.httpVersion === '1.1') {
        answerNode(res, 400, 'invalid_request', 'The request has no Host header.');
        return;
      }
      listener(req, res);
    },
  );
  answerClientErrors(server);
  // Node answered an Expect other than 100-continue with a bare 417.
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) =>
    answerNode(res, 417, 'invalid_request', 'Only "Expect: 100-continue" is supported.'),
  );
  return server;
}

function errorHeaders(requestId: string): Record<string, string> {
  return { 'content-type': 'application/json', 'x-request-id': requestId, ...SECURITY_HEADERS };
}

function errorResponse(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify(errorBody(code, message)), {
    status,
    headers: errorHeaders(requestIdFor(undefined)),
  });
}

function answerNode(res: ServerResponse, status: number, code: string, message: string): void {
  const body = JSON.stringify(errorBody(code, message));
  res.writeHead(status, {
    ...errorHeaders(requestIdFor(res.req.headers['x-request-id'] as string | undefined)),
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Whether a request has a body that has not all arrived yet. */
function bodyStillArriving(req: IncomingMessage): boolean {
  if (req.complete) return false;
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * A response that, begun before its request's body has all arrived (a 413 mid-body, a 401 to an upload),
 * closes the connection (`Connection: close`) the clean way: the rest of the body is read and dropped
 * while the client gets the answer, then the connection ends (closeAfterAnswer). Keeping it alive would
 * take the whole unwanted body first; Node's own close, as soon as the answer is out, sent a reset that
 * could wipe the answer before the client read it.
 */
class ClosingResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(...args: unknown[]): this {
    const socket = this.socket as Socket | null;
    if (socket && bodyStillArriving(this.req)) {
      this.shouldKeepAlive = false;
      const req = this.req;
      // Node ends the connection with destroySoon() once this answer is out.
      socket.destroySoon = () => {
        req.resume();
        closeAfterAnswer(socket);
      };
    }
    return (ServerResponse.prototype.writeHead as (...a: unknown[]) => this).apply(this, args);
  }
}
