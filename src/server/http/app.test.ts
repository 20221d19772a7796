import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../contract/errors.ts';
import { insertTeam } from '../domain/files/file-test-support.ts';
import { storeFile } from '../domain/files/files.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  t.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

async function envelope(response: Response) {
  return ErrorEnvelope.parse(await response.json()).error;
}

describe('error envelope and HTTP behaviour', () => {
  it('answers 400 invalid_request for a body that is not a JSON object', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null', '{not json', '']) {
      const response = await post('/api/auth/cli/send-otp', body);
      expect(response.status, body).toBe(400);
      expect((await envelope(response)).code).toBe('invalid_request');
    }
  });

  it('answers 422 invalid_request listing every bad field', async () => {
    const response = await post('/api/auth/cli/verify-otp', JSON.stringify({ code: 'abc' }));
    expect(response.status).toBe(422);
    const error = await envelope(response);
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual({
      fields: [
        expect.objectContaining({ field: 'email' }),
        expect.objectContaining({ field: 'code', message: 'must be the 6-digit code' }),
      ],
    });
  });

  it('answers 422 for a bad query parameter, naming it', async () => {
    const response = await t.request('/api/dev/mailbox?to=nope');
    expect(response.status).toBe(422);
    expect((await envelope(response)).details).toEqual({
      fields: [expect.objectContaining({ field: 'query.to' })],
    });
  });

  it('validates path parameters the same way however often an id is asked for', async () => {
    const { api_key } = await signUp(t);
    const headers = { authorization: `Bearer ${api_key}` };
    for (let i = 0; i < 3; i++) {
      const missing = await t.request('/v2/jobs/job_missing', { headers });
      expect(missing.status).toBe(404);
      const invalid = await t.request('/v2/jobs/not-a-job-id', { headers });
      expect(invalid.status).toBe(422);
      expect((await envelope(invalid)).details).toEqual({
        fields: [expect.objectContaining({ field: 'path.id' })],
      });
    }
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const response = await post(
      '/api/auth/cli/send-otp',
      JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(1_100_000) }),
    );
    expect(response.status).toBe(413);
    expect((await envelope(response)).code).toBe('payload_too_large');
  });

  it('answers 404 not_found for unknown API routes', async () => {
    for (const path of ['/v2/nothing-here', '/v1/nope', '/api/unknown']) {
      const response = await t.request(path);
      expect(response.status).toBe(404);
      expect((await envelope(response)).code).toBe('not_found');
    }
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const response = await t.request('/v2/pricing', { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
    expect((await envelope(response)).code).toBe('method_not_allowed');
    const withParam = await t.request('/v2/tools/image', { method: 'POST' });
    expect(withParam.status).toBe(405);
  });

  it('puts a request id on every answer and keeps a sane inbound one', async () => {
    const ids = new Set<string | null>();
    for (const path of ['/v2/pricing', '/v2/openapi.yaml', '/v2/nope', '/api/auth/cli/send-otp']) {
      const response = await t.request(path);
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      ids.add(response.headers.get('x-request-id'));
    }
    expect(ids.size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-z]{16,}$/);
    const echoed = await t.request('/v2/nothing', { headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    for (const hostile of ['has spaces', 'x'.repeat(65), '<script>']) {
      const response = await t.request('/v2/pricing', { headers: { 'x-request-id': hostile } });
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    }
  });

  it('sends no-store on answers that carry secrets', async () => {
    const { email } = await signUp(t);
    const client = t.clientFor(null, '203.0.113.200');
    await client.sendOtp({ body: { email } });
    const code = (await t.local.devMailbox({ query: { to: email } })).data[0]!.code;
    const response = await post('/api/auth/cli/verify-otp', JSON.stringify({ email, code }), {
      'x-forwarded-for': '203.0.113.201',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 500 with the envelope and no stack when something breaks', async () => {
    const broken = await createTestApp();
    await broken.db.query('DROP TABLE otp_codes');
    const response = await broken.request('/api/auth/cli/send-otp', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'someone@example.com' }),
    });
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toMatch(/at .*\.ts:\d+/);
    const error = ErrorEnvelope.parse(JSON.parse(text)).error;
    expect(error.code).toBe('internal_error');
    expect(error.message).toContain(response.headers.get('x-request-id')!);
    await broken.close();
  });

  it('reports health with a database round trip', async () => {
    const response = await t.request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('conditional and compressed answers', () => {
  it('answers the price catalog 304 for its ETag, and gzip when asked', async () => {
    const first = await t.request('/v2/pricing');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.request('/v2/pricing', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const gz = await t.request('/v2/pricing', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(await first.text());
  });

  it('compresses a list made per request when asked', async () => {
    const plain = await t.request('/v2/presets');
    const body = await plain.text();
    expect(body.length).toBeGreaterThan(1024);
    const gz = await t.request('/v2/presets', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toBe('accept-encoding');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(body);
  });

  it('leaves file downloads and their Range answers as stored, whatever Accept-Encoding says', async () => {
    const data = Buffer.from('a plain text file, compressible by type. '.repeat(100));
    const file = await storeFile(t.services, {
      teamId: await insertTeam(t.db),
      name: 'notes.txt',
      mediaType: 'text/plain',
      data,
      origin: 'upload',
    });
    const path = file.url.slice(TEST_PUBLIC_URL.length);
    const whole = await t.request(path, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(whole.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await whole.arrayBuffer()).equals(data)).toBe(true);
    const part = await t.request(path, { headers: { 'accept-encoding': 'gzip, br', range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await part.arrayBuffer()).equals(data.subarray(0, 10))).toBe(true);
  });
});
