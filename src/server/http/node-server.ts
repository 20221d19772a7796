import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import { answerClientErrors } from './client-errors.ts';
import { requestIdFor, SECURITY_HEADERS } from './request-record.ts';
import { errorBody } from './respond.ts';

type FetchHandler = Parameters<typeof getRequestListener>[0];

export interface ApiServerOptions {
  /** The name the framework uses for a request without Host (HTTP/1.0). */
  hostname?: string;
  /** A listener of its own in front of the framework's (the fast lane). */
  ahead?: (framework: RequestListener) => RequestListener;
}

/**
 * The node:http server for an app: every answer it gives, including those Node and the Node adapter would
 * give by themselves (unparsable requests, a path or Host the adapter refuses, no Host, an unknown Expect,
 * CONNECT, timeouts), carries the error envelope and a request id.
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
