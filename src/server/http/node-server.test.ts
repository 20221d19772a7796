import type http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../contract/errors.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { createApiServer } from './node-server.ts';
import { MAX_JSON_BODY_BYTES } from './request-input.ts';

/*
 * The server's own edges over raw sockets (issue 27): what Node or its adapter would answer by themselves
 * gets the envelope and a request id; an oversize body gets its 413 and a clean close, never a reset; a
 * client slow with its headers gets its 408 soon. The headers timeout is 1 s here, so that test is quick.
 */

const HEADERS_TIMEOUT_MS = 1_000;

let t: TestApp;
let server: http.Server;
let port: number;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
  server = createApiServer(t.app.fetch, { hostname: '127.0.0.1', headersTimeoutMs: HEADERS_TIMEOUT_MS });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

interface Exchange {
  /** Everything the server sent, as text. */
  received: string;
  /** A socket error (a reset) the client saw, if any. */
  error?: string;
}

/** Sends raw bytes, then waits for the server to close; answers what came back and any socket error. */
function rawExchange(bytes: string | Buffer) {
  return new Promise<Exchange>((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let received = '';
    let error: string | undefined;
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('end', () => socket.end());
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ received, error }));
  });
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Bytes after the first answer's body (a second answer, say). */
  extra: string;
}

/** The first HTTP answer in `received` (its body framed by Content-Length). */
function parseAnswer(received: string): Answer {
  const split = received.indexOf('\r\n\r\n');
  expect(split, `no complete head in ${JSON.stringify(received.slice(0, 200))}`).toBeGreaterThan(0);
  const [statusLine, ...lines] = received.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const length = Number(headers['content-length']);
  const rest = received.slice(split + 4);
  return {
    status: Number(statusLine!.split(' ')[1]),
    headers,
    body: rest.slice(0, length),
    extra: rest.slice(length),
  };
}

/** An error answer as every answer of the server is: the envelope, JSON, a request id, the code. */
function expectEnvelope(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(ErrorEnvelope.parse(JSON.parse(answer.body)).error.code).toBe(code);
}

describe('answers Node and its adapter would give by themselves', () => {
  it.each([
    [
      'a backslash in the path',
      'GET /v2\\pricing HTTP/1.1\r\nHost: localhost\r\n\r\n',
      400,
      'invalid_request',
    ],
    [
      'a backslash after a dot segment',
      'GET /v2/..\\etc HTTP/1.1\r\nHost: localhost\r\n\r\n',
      400,
      'invalid_request',
    ],
    ['a Host that is no host', 'GET /v2/pricing HTTP/1.1\r\nHost: a b\r\n\r\n', 400, 'invalid_request'],
    ['an asterisk request target', 'GET * HTTP/1.1\r\nHost: localhost\r\n\r\n', 400, 'invalid_request'],
    ['no Host on HTTP/1.1', 'GET /v2/pricing HTTP/1.1\r\n\r\n', 400, 'invalid_request'],
    [
      'an Expect other than 100-continue',
      'GET /v2/pricing HTTP/1.1\r\nHost: localhost\r\nExpect: tea\r\n\r\n',
      417,
      'invalid_request',
    ],
    [
      'CONNECT',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      405,
      'method_not_allowed',
    ],
    [
      'a control character in a header',
      'GET /v2/pricing HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0001b\r\n\r\n',
      400,
      'invalid_request',
    ],
    [
      'a method that is no token',
      'G@T /v2/pricing HTTP/1.1\r\nHost: localhost\r\n\r\n',
      400,
      'invalid_request',
    ],
    [
      'a raw non-ASCII path',
      'GET /v2/pr\u00efcing HTTP/1.1\r\nHost: localhost\r\n\r\n',
      400,
      'invalid_request',
    ],
    [
      'an unknown HTTP version',
      'GET /v2/pricing HTTP/9.9\r\nHost: localhost\r\n\r\n',
      400,
      'invalid_request',
    ],
    ['an HTTP/2 preface on HTTP/1.1', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, 'invalid_request'],
  ])('answers %s with the envelope and a request id', async (_, request, status, code) => {
    const { received, error } = await rawExchange(Buffer.from(request, 'latin1'));
    expect(error).toBeUndefined();
    const answer = parseAnswer(received);
    expectEnvelope(answer, status, code);
    expect(answer.extra).toBe('');
    // The server goes on answering.
    expect((await fetch(`http://127.0.0.1:${port}/v2/pricing`)).status).toBe(200);
  });
});

/**
 * A client that sends the head, then writes chunks of `chunk` bytes for as long as the server has not ended
 * the connection (it does not stop at the answer), then ends its side. Answers what came back and any error.
 */
function writeUntilClosed(head: string, chunk: Buffer) {
  return new Promise<Exchange & { sent: number }>((resolve) => {
    let received = '';
    let error: string | undefined;
    let sent = 0;
    let serverEnded = false;
    const socket = net.connect(port, '127.0.0.1', async () => {
      socket.write(head);
      while (!serverEnded && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) {
          await new Promise<void>((r) => {
            const done = () => {
              for (const event of ['drain', 'close', 'end']) socket.off(event, done);
              r();
            };
            for (const event of ['drain', 'close', 'end']) socket.once(event, done);
          });
        }
      }
      if (!socket.destroyed) socket.end();
    });
    socket.on('data', (data) => {
      received += data;
    });
    socket.on('end', () => {
      serverEnded = true;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ received, error, sent }));
  });
}

const CHUNK = 65_536;
/** One chunk of a chunked body: its size line, the bytes and the CRLF. */
const bodyChunk = Buffer.concat([
  Buffer.from(`${CHUNK.toString(16)}\r\n{"text":"`),
  Buffer.alloc(CHUNK - 9, 0x20),
  Buffer.from('\r\n'),
]);

describe('a body past the limit', () => {
  it('gets its 413, then a clean close, every time, from a client that keeps writing a chunked body', async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      const exchange = await writeUntilClosed(
        'POST /api/auth/cli/send-otp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          'Transfer-Encoding: chunked\r\n\r\n',
        bodyChunk,
      );
      expect({ attempt, error: exchange.error }).toEqual({ attempt, error: undefined });
      const answer = parseAnswer(exchange.received);
      expectEnvelope(answer, 413, 'payload_too_large');
      expect(answer.headers.connection).toBe('close');
      // One answer, nothing after it, and the body was not taken to its end.
      expect(answer.extra).toBe('');
      expect(exchange.sent).toBeGreaterThan(MAX_JSON_BODY_BYTES);
    }
  });

  it('gets its 413 at once for a Content-Length past the limit, then a clean close', async () => {
    const length = 50 * MAX_JSON_BODY_BYTES;
    const exchange = await writeUntilClosed(
      'POST /api/auth/cli/send-otp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${length}\r\n\r\n`,
      Buffer.alloc(CHUNK, 0x20),
    );
    expect(exchange.error).toBeUndefined();
    const answer = parseAnswer(exchange.received);
    expectEnvelope(answer, 413, 'payload_too_large');
    expect(answer.headers.connection).toBe('close');
    expect(answer.extra).toBe('');
    expect(exchange.sent).toBeLessThan(length);
  });
});

describe('timeouts', () => {
  it('defaults to a headers timeout fit for an API, and a request timeout a 200 MB upload fits in', () => {
    const defaults = createApiServer(t.app.fetch);
    expect(defaults.headersTimeout).toBeLessThanOrEqual(15_000);
    // 200 MB at 0.5 Mbit/s.
    expect(defaults.requestTimeout).toBeGreaterThanOrEqual(((200e6 * 8) / 0.5e6) * 1000);
  });

  it('answers a client slow with its headers with 408 soon after the headers timeout', async () => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise((r) => socket.once('close', r));
    socket.on('error', () => {});
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('end', () => socket.end());
    await new Promise((r) => socket.once('connect', r));
    socket.write('GET /v2/pricing HTTP/1.1\r\nHost: localhost\r\n');
    // A header line every 200 ms: the connection is never idle, the headers are never done.
    const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
    await closed;
    clearInterval(drip);
    const elapsed = performance.now() - started;
    expectEnvelope(parseAnswer(received), 408, 'invalid_request');
    expect(elapsed).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    // The timeout plus at most one check interval (1 s), and some slack for a loaded machine.
    expect(elapsed).toBeLessThan(HEADERS_TIMEOUT_MS + 3_000);
  }, 10_000);

  it('keeps the headers timeout and the body timeout apart: a body slower than the headers timeout is taken', async () => {
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise((r) => socket.once('close', r));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('end', () => socket.end());
    await new Promise((r) => socket.once('connect', r));
    const body = '{"email":"slow@example.com"}';
    socket.write(
      'POST /api/auth/cli/send-otp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // The body arrives byte by byte over twice the headers timeout.
    for (const byte of body) {
      socket.write(byte);
      await new Promise((r) => setTimeout(r, (2 * HEADERS_TIMEOUT_MS) / body.length));
    }
    await closed;
    expect(parseAnswer(received).status).toBeLessThan(300);
  }, 10_000);
});
