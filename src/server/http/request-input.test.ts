import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../contract/errors.ts';
import { createTestApp, signUp, type TestApp } from '../testing/test-app.ts';
import { createApiServer } from './node-server.ts';
import { MAX_JSON_BODY_BYTES } from './request-input.ts';

/*
 * Input the database cannot hold (NUL, lone surrogates) is refused before any route runs, and JSON bodies
 * are cut off at their limit as they stream, whatever their framing (issue 16, "Bad input").
 */

let t: TestApp;
let key: string;
let server: http.Server;
let port: number;
let jobId: string;
let fileId: string;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
  key = (await signUp(t)).api_key;
  const client = t.clientFor(key);
  jobId = (await client.createSpeech({ body: { text: 'hello' } })).id;
  fileId = (
    await client.uploadFile({ body: { filename: 'a.txt', data: Buffer.from('hello').toString('base64') } })
  ).id;
  server = createApiServer(t.app.fetch, { hostname: '127.0.0.1' });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

const json = (body: unknown, method = 'POST') => ({
  method,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function refusal(response: Response) {
  return { status: response.status, ...ErrorEnvelope.parse(await response.json()).error };
}

const fieldsOf = (error: { details?: unknown }) =>
  (error.details as { fields: Array<{ field: string }> }).fields.map((f) => f.field);

describe('NUL and lone surrogates', () => {
  it.each([
    ['a NUL', 'a\u0000b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', '\udc00'],
  ])('refuses %s in a body string with 422 naming the field', async (_, bad) => {
    const jobsBefore = await t.db.query('SELECT count(*)::int AS n FROM jobs');
    for (const [path, body, field] of [
      ['/v2/image', { prompt: bad }, 'prompt'],
      ['/v2/speech', { text: 'hi', voice: bad }, 'voice'],
      ['/v2/image', { prompt: 'x', files: [{ url: `https://example.com/${bad}` }] }, 'files.0.url'],
    ] as const) {
      const error = await refusal(await t.request(path, json(body)));
      expect(error).toMatchObject({ status: 422, code: 'invalid_request' });
      expect(fieldsOf(error)).toEqual([field]);
    }
    const renamed = await refusal(await t.request(`/v2/files/${fileId}`, json({ name: bad }, 'PATCH')));
    expect(fieldsOf(renamed)).toEqual(['name']);
    const folder = await refusal(await t.request('/v2/workspaces', json({ name: bad })));
    expect(fieldsOf(folder)).toEqual(['name']);
    const email = await refusal(
      await t.request('/api/auth/cli/send-otp', json({ email: `a${bad}@example.com` })),
    );
    expect(fieldsOf(email)).toEqual(['email']);
    expect((await t.db.query('SELECT count(*)::int AS n FROM jobs')).rows).toEqual(jobsBefore.rows);
  });

  it('refuses NUL in an object key (free-form provider options) naming the key', async () => {
    const error = await refusal(
      await t.request('/v2/speech', json({ text: 'hi', provider_options: { local: { 'a\u0000': 1 } } })),
    );
    expect(error.status).toBe(422);
    expect(fieldsOf(error)).toEqual(['provider_options.local.a\\u0000']);
  });

  it('answers 422 naming q for GET /v2/files?q=%00, and for any query value with NUL', async () => {
    const headers = { authorization: `Bearer ${key}` };
    const files = await refusal(await t.request('/v2/files?q=%00', { headers }));
    expect(files).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(fieldsOf(files)).toEqual(['query.q']);
    const jobs = await refusal(await t.request('/v2/jobs?model=a%00b', { headers }));
    expect(fieldsOf(jobs)).toEqual(['query.model']);
  });

  it('answers 404 for %00 in a path id, on every route under the job and on other ids', async () => {
    const headers = { authorization: `Bearer ${key}` };
    for (const [method, path] of [
      ['GET', '/v2/jobs/job_%00'],
      ['GET', '/v2/jobs/job_%00/status'],
      ['GET', '/v2/jobs/job_%00/price'],
      ['GET', '/v2/jobs/job_%00/webhook-deliveries'],
      ['POST', '/v2/jobs/job_%00/cancel'],
      ['POST', '/v2/jobs/job_%00/retry'],
      ['POST', '/v2/jobs/job_%00/refresh'],
      ['GET', '/v2/workspaces/%00'],
      ['PATCH', '/v2/workspaces/a%00'],
    ] as const) {
      const response = await t.request(path, {
        method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: method === 'PATCH' ? '{"name":"x"}' : undefined,
      });
      expect(await refusal(response), `${method} ${path}`).toMatchObject({ status: 404, code: 'not_found' });
    }
    // Public output files live outside the contract's routes: the same rule holds there.
    expect(await refusal(await t.request('/media/file_%00/a.png'))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    // The real job is still there, untouched.
    expect((await t.clientFor(key).getJob({ params: { id: jobId } })).status).toBe('queued');
  });
});

describe('JSON bodies', () => {
  it('refuses a body that is not declared JSON with 415', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', undefined]) {
      const response = await t.request('/v2/speech', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, ...(contentType ? { 'content-type': contentType } : {}) },
        body: new TextEncoder().encode('{"text":"hi"}'),
      });
      expect(await refusal(response), String(contentType)).toMatchObject({
        status: 415,
        code: 'unsupported_media_type',
      });
    }
  });

  it('refuses JSON nested 10,000 levels deep with 422, wherever the nesting is', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const [path, body] of [
      ['/v2/pipeline', `{"steps":[{"id":"a","tool":"image","input":{"prompt":"x","a":${deep}}}]}`],
      ['/v2/speech', `{"text":"hi","a":${deep}}`],
    ] as const) {
      const response = await t.request(path, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      expect(await refusal(response)).toMatchObject({ status: 422, code: 'invalid_request' });
    }
  });
});

function drainedOrClosed(request: http.ClientRequest) {
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const event of ['drain', 'close']) request.off(event, done);
      resolve();
    };
    for (const event of ['drain', 'close']) request.once(event, done);
  });
}

const SEND_CAP = 128 * 1_048_576;

/**
 * Streams a chunked body that never ends (up to SEND_CAP): the answer must come while the client is still
 * sending, and the server must then stop taking the body by closing the connection, long before the cap.
 */
function sendEndlessly(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string; sentBeforeAnswer: number; sent: number }>((resolve) => {
    let sent = 0;
    let sentBeforeAnswer = -1;
    let answer = { status: 0, body: '' };
    const request = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (response) => {
      sentBeforeAnswer = sent;
      answer = { status: response.statusCode ?? 0, body: '' };
      response.on('data', (c) => {
        answer.body += c;
      });
    });
    // The server ends the connection while the body is still going out: writes then fail, as expected.
    request.on('error', () => {});
    request.on('close', () => resolve({ ...answer, sentBeforeAnswer, sent }));
    const chunk = Buffer.alloc(65_536, 0x20);
    (async () => {
      request.write('{"text":"');
      while (!request.destroyed && sent < SEND_CAP) {
        sent += chunk.length;
        if (!request.write(chunk)) await drainedOrClosed(request);
      }
      if (!request.destroyed) request.end('"}');
    })();
  });
}

describe('body limits as the body streams', () => {
  it.each([
    ['an unauthenticated route', '/api/auth/cli/send-otp', {}],
    ['an authenticated route', '/v2/speech', { auth: true }],
  ])('answers 413 to a chunked body past 1 MiB on %s, then stops taking it', async (_, path, opts) => {
    const answer = await sendEndlessly(path, {
      'content-type': 'application/json',
      ...('auth' in opts ? { authorization: `Bearer ${key}` } : {}),
    });
    expect(answer.sentBeforeAnswer).toBeGreaterThan(MAX_JSON_BODY_BYTES);
    expect(answer.sentBeforeAnswer).toBeLessThan(SEND_CAP);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe('payload_too_large');
    // The server closed the connection: the client never got to send the rest.
    expect(answer.sent).toBeLessThan(SEND_CAP);
  });

  it('answers 413 at once to a Content-Length past the limit, and keeps taking bodies up to it', async () => {
    const over = await t.request('/v2/speech', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'x'.repeat(MAX_JSON_BODY_BYTES) }),
    });
    expect((await refusal(over)).status).toBe(413);
    const padded = `{"text":"hi"${' '.repeat(MAX_JSON_BODY_BYTES - 14)}}`;
    expect(Buffer.byteLength(padded)).toBe(MAX_JSON_BODY_BYTES - 1);
    const under = await t.request('/v2/speech', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: padded,
    });
    expect(under.status).toBe(202);
  });
});

/** Raw bytes over a socket, for what no HTTP client sends; answers whatever came back before the close. */
function rawExchange(bytes: string) {
  return new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('requests Node cannot parse', () => {
  it.each([
    [
      'both Content-Length and chunked',
      'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['a chunk size that is not hex', 'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n', 400],
    ['headers past the limit', `X-Filler: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\n{}`, 431],
  ])('answers %s with the error envelope', async (_, rest, status) => {
    const answer = await rawExchange(
      `POST /api/auth/cli/send-otp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${rest}`,
    );
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toMatch(/content-type: application\/json/i);
    expect(ErrorEnvelope.parse(JSON.parse(body!)).error.code).toBe(
      status === 413 ? 'payload_too_large' : 'invalid_request',
    );
    // The server goes on answering.
    expect((await fetch(`http://127.0.0.1:${port}/v2/pricing`)).status).toBe(200);
  });
});
