import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { closeAfterAnswer } from './linger.ts';
import { requestIdFor, SECURITY_HEADERS } from './request-record.ts';
import { errorBody } from './respond.ts';

type Answer = [number, string, 'invalid_request' | 'payload_too_large', string];

/** Node's own answers to requests it cannot parse, with the error envelope every other answer has. */
const ANSWERS: Record<string, Answer> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'invalid_request',
    'The request headers are too large.',
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    'Payload Too Large',
    'payload_too_large',
    'The chunk extensions are too large.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'invalid_request',
    'The request did not arrive in time.',
  ],
};
const BAD_FRAMING: Answer = [
  400,
  'Bad Request',
  'invalid_request',
  'The request is not valid HTTP/1.1 (its request line, framing, headers or chunks).',
];

/**
 * A complete HTTP/1.1 error answer as raw bytes, for where Node leaves us a socket and no response object:
 * the envelope, a request id of ours (the request's own headers were never parsed) and the security headers.
 */
function rawErrorAnswer(status: number, reason: string, code: string, message: string): string {
  const body = JSON.stringify(errorBody(code, message));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestIdFor(undefined),
    ...SECURITY_HEADERS,
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join('')}\r\n${body}`;
}

const answered = new WeakSet<Duplex>();

/**
 * Requests Node's parser refuses (bad request lines, header characters, framing or chunks, headers too
 * large, headers or body too slow) never reach the app; Node would answer them with a bare status line.
 * This answers them as the app does, then closes the connection without a reset (closeAfterAnswer): only
 * while no answer of this connection has begun, else it just closes. Node's parser goes on reading (and
 * failing on) what the client still sends, and reports each failure here: only the first is answered.
 *
 * CONNECT, which Node would drop without a word, is answered 405 the same way.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, code, message] = ANSWERS[error.code ?? ''] ?? BAD_FRAMING;
    socket.write(rawErrorAnswer(status, reason, code, message));
    closeAfterAnswer(socket as Socket);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    socket.write(
      rawErrorAnswer(405, 'Method Not Allowed', 'method_not_allowed', 'CONNECT is not allowed here.'),
    );
    // Node let go of this socket: nothing reads it unless asked to, and an unread byte makes the close a reset.
    socket.resume();
    closeAfterAnswer(socket as Socket);
  });
}
