import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './respond.ts';

/** Node's own answers to requests it cannot parse, with the error envelope every other answer has. */
const ANSWERS: Record<string, [number, string, 'invalid_request' | 'payload_too_large', string]> = {
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
const BAD_FRAMING: [number, string, 'invalid_request', string] = [
  400,
  'Bad Request',
  'invalid_request',
  'The request is not valid HTTP/1.1 (its framing, headers or chunks).',
];

/**
 * Requests Node's parser refuses (conflicting Content-Length and Transfer-Encoding, bad chunks, headers too
 * large) never reach the app; Node would answer them with a bare status line. This answers them as the app
 * does, then closes the connection, as Node does: only while no answer of this connection has begun.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const [status, reason, code, message] = ANSWERS[error.code ?? ''] ?? BAD_FRAMING;
      const body = JSON.stringify(errorBody(code, message));
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
          `x-content-type-options: nosniff\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  });
}
