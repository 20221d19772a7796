import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { type OwnFiles, type Resolve, safeFetch, safeFetchStream } from './safe-fetch.ts';
import { assertAddressAllowed, type UrlPolicy } from './url-policy.ts';

/**
 * One HTTP server on 127.0.0.1 that counts TCP connections. "No connection made" is proved by the count
 * staying at zero; the ALLOW_PRIVATE_NETWORK control cases prove the same URLs do reach it otherwise.
 */
let server: http.Server;
let port = 0;
let connections = 0;
const hits: string[] = [];
const requestHeaders: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.push(`${req.method} ${url.pathname}`);
    requestHeaders.push(req.headers);
    const p = url.pathname;
    if (p === '/file') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end('PNGDATA');
    } else if (p === '/redirect') {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), {
        location: url.searchParams.get('to') ?? '',
      });
      res.end();
    } else if (p.startsWith('/chain/')) {
      const n = Number(p.slice('/chain/'.length));
      if (n > 0) res.writeHead(302, { location: `/chain/${n - 1}` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('end of chain');
    } else if (p === '/bytes') {
      const size = Number(url.searchParams.get('n'));
      const chunked = url.searchParams.has('chunked');
      res.writeHead(200, chunked ? {} : { 'content-length': String(size) });
      const chunk = Buffer.alloc(1024, 'a');
      let sent = 0;
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(1024, size - sent));
        res.write(part);
        sent += part.length;
      }
      res.end();
    } else if (p === '/status') {
      res.writeHead(Number(url.searchParams.get('code'))).end('nope');
    } else if (p === '/hang') {
      // Never answers.
    } else if (p === '/trickle') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part, then nothing');
    } else if (p === '/echo') {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ method: req.method, body, authorization: req.headers.authorization ?? null }),
        );
      });
    } else {
      res.writeHead(404).end();
    }
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  connections = 0;
  hits.length = 0;
  requestHeaders.length = 0;
});

const strict: UrlPolicy = { blockedDomains: ['blocked.example'], allowPrivateNetwork: false };
const open: UrlPolicy = { blockedDomains: ['blocked.example'], allowPrivateNetwork: true };

/** A resolver for made-up names; counts its calls. Unknown names are not found. */
function fakeDns(table: Record<string, string[]>): Resolve & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({
      address,
      family: address.includes(':') ? (6 as const) : (4 as const),
    }));
  };
  return Object.assign(resolve, { calls });
}

/**
 * The address check a test uses to let exactly one made-up public name reach the local server: that name
 * may connect to 127.0.0.1, everything else goes through the real policy.
 */
function allowOnly(hostname: string, policy: UrlPolicy = strict) {
  return (ip: string, url: URL) => {
    if (url.hostname === hostname && ip === '127.0.0.1') return;
    assertAddressAllowed(ip, policy, url);
  };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError, the fetch succeeded');
}

describe('safeFetch: non-public addresses', () => {
  const notations = () => [
    `http://127.0.0.1:${port}/file`,
    `http://[::ffff:7f00:1]:${port}/file`,
    `http://[::ffff:127.0.0.1]:${port}/file`,
    `http://0177.0.0.1:${port}/file`,
    `http://2130706433:${port}/file`,
    `http://0x7f.1:${port}/file`,
    `http://127.1:${port}/file`,
  ];

  it('refuses loopback in every notation with 403 forbidden and never connects', async () => {
    const dns = fakeDns({});
    for (const url of notations()) {
      const err = await rejection(safeFetch(url, { policy: strict, resolve: dns }));
      expect(err.code, url).toBe('forbidden');
      expect(err.status).toBe(403);
      expect(err.message).toMatch(/loopback/);
      expect(err.message).toContain(`:${port}/file`);
    }
    expect(dns.calls).toEqual([]);
    expect(connections).toBe(0);
    expect(hits).toEqual([]);
  });

  it('control: with ALLOW_PRIVATE_NETWORK the same URLs connect and the body is read', async () => {
    const list = notations();
    for (const url of list) {
      const res = await safeFetch(url, { policy: open });
      expect(res.status, url).toBe(200);
      expect(res.body.toString()).toBe('PNGDATA');
      expect(res.contentType).toBe('image/png');
      expect(res.headers['content-type']).toBe('image/png');
    }
    expect(connections).toBe(list.length);
  });

  it('refuses localhost (system resolver) with 403 and never connects', async () => {
    const err = await rejection(safeFetch(`http://localhost:${port}/file`, { policy: strict }));
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is (a|the) loopback/);
    expect(connections).toBe(0);
    const ok = await safeFetch(`http://localhost:${port}/file`, { policy: open });
    expect(ok.body.toString()).toBe('PNGDATA');
  });

  it('refuses a name that resolves to loopback, and a name with any non-public address among public ones', async () => {
    const dns = fakeDns({
      'files.example.test': ['127.0.0.1'],
      'mixed.example.test': ['93.184.215.14', '127.0.0.1'],
      'mapped.example.test': ['::ffff:127.0.0.1'],
      'metadata.example.test': ['169.254.169.254'],
    });
    for (const host of [
      'files.example.test',
      'mixed.example.test',
      'mapped.example.test',
      'metadata.example.test',
    ]) {
      const err = await rejection(safeFetch(`http://${host}:${port}/file`, { policy: strict, resolve: dns }));
      expect(err.code, host).toBe('forbidden');
      expect(err.status).toBe(403);
      expect(err.message).toContain(`${host} resolves to`);
    }
    expect(dns.calls).toHaveLength(4);
    expect(connections).toBe(0);
  });

  it('connects to the address it checked, resolving once (no second lookup to rebind)', async () => {
    const dns = fakeDns({ 'files.example.test': ['127.0.0.1'] });
    const checked: string[] = [];
    const res = await safeFetch(`http://files.example.test:${port}/file`, {
      policy: open,
      resolve: dns,
      checkAddress: (ip) => checked.push(ip),
    });
    expect(res.body.toString()).toBe('PNGDATA');
    // The system resolver does not know files.example.test: the connection used the injected answer.
    expect(dns.calls).toEqual(['files.example.test']);
    // Checked when resolved, and again on the connected socket's peer address.
    expect(checked).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(requestHeaders[0]?.host).toBe(`files.example.test:${port}`);
  });

  it('fails closed when the name does not resolve', async () => {
    const err = await rejection(
      safeFetch(`http://nowhere.example.test:${port}/file`, { policy: strict, resolve: fakeDns({}) }),
    );
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/host nowhere\.example\.test not found/);
  });
});

describe('safeFetch: redirects', () => {
  const dns = fakeDns({
    'files.example.test': ['127.0.0.1'],
    'internal.example.test': ['127.0.0.1'],
    'cdn.blocked.example': ['127.0.0.1'],
  });
  const start = (to: string, status = 302) =>
    `http://files.example.test:${port}/redirect?status=${status}&to=${encodeURIComponent(to)}`;
  const options = { policy: strict, resolve: dns, checkAddress: allowOnly('files.example.test') };

  it('follows a redirect to an allowed URL (control)', async () => {
    const res = await safeFetch(start(`http://files.example.test:${port}/file`), options);
    expect(res.body.toString()).toBe('PNGDATA');
    expect(res.finalUrl).toBe(`http://files.example.test:${port}/file`);
    expect(hits).toEqual(['GET /redirect', 'GET /file']);
    expect(connections).toBe(2);
  });

  it.each([
    [
      'the cloud metadata address',
      'http://169.254.169.254/latest/meta-data',
      /169\.254\.169\.254 is a link-local/,
    ],
    ['a loopback IP literal', 'http://127.0.0.1:PORT/file', /127\.0\.0\.1 is a loopback/],
    ['a mapped loopback literal', 'http://[::ffff:7f00:1]:PORT/file', /IPv4-mapped form of 127\.0\.0\.1/],
    [
      'a name resolving to loopback',
      'http://internal.example.test:PORT/file',
      /internal\.example\.test resolves to 127/,
    ],
    ['a blocked domain', 'http://cdn.blocked.example:PORT/file', /blocked domain/],
  ])('refuses a redirect to %s with 403, re-checked before connecting', async (_name, target, reason) => {
    const to = target.replace('PORT', String(port));
    for (const status of [301, 302, 303, 307, 308]) {
      const err = await rejection(safeFetch(start(to, status), options));
      expect(err.code).toBe('forbidden');
      expect(err.status).toBe(403);
      expect(err.message).toMatch(reason);
      expect(err.message).toContain(
        `reached by a redirect from http://files.example.test:${port}/redirect?…`,
      );
    }
    // Only the five first hops reached the server; no second hop was ever connected.
    expect(hits).toEqual(Array(5).fill('GET /redirect'));
    expect(connections).toBe(5);
  });

  it('refuses a redirect to another scheme with 422', async () => {
    const err = await rejection(safeFetch(start('file:///etc/passwd'), options));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/only http: and https:/);
  });

  it('follows at most 5 redirects', async () => {
    const ok = await safeFetch(`http://files.example.test:${port}/chain/5`, options);
    expect(ok.body.toString()).toBe('end of chain');
    expect(connections).toBe(6);
    connections = 0;
    const err = await rejection(safeFetch(`http://files.example.test:${port}/chain/6`, options));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/more than 5 redirects/);
    expect(connections).toBe(6);
    const one = await rejection(
      safeFetch(`http://files.example.test:${port}/chain/2`, { ...options, maxRedirects: 1 }),
    );
    expect(one.message).toMatch(/more than 1 redirects/);
  });

  it('turns POST into GET on 303 and drops credentials on a cross-origin hop', async () => {
    const dns2 = fakeDns({ 'a.example.test': ['127.0.0.1'], 'b.example.test': ['127.0.0.1'] });
    const check = (ip: string, url: URL) => {
      if (ip !== '127.0.0.1' || !url.hostname.endsWith('.example.test'))
        assertAddressAllowed(ip, strict, url);
    };
    const to = `http://b.example.test:${port}/echo`;
    const res = await safeFetch(
      `http://a.example.test:${port}/redirect?status=303&to=${encodeURIComponent(to)}`,
      {
        policy: strict,
        resolve: dns2,
        checkAddress: check,
        method: 'POST',
        body: 'payload',
        headers: { Authorization: 'Bearer secret', 'Content-Type': 'text/plain' },
      },
    );
    expect(JSON.parse(res.body.toString())).toEqual({ method: 'GET', body: '', authorization: null });
    expect(requestHeaders[0]?.authorization).toBe('Bearer secret');

    const kept = await safeFetch(`http://a.example.test:${port}/redirect?status=307&to=%2Fecho`, {
      policy: strict,
      resolve: dns2,
      checkAddress: check,
      method: 'POST',
      body: 'payload',
      headers: { Authorization: 'Bearer secret' },
    });
    expect(JSON.parse(kept.body.toString())).toEqual({
      method: 'POST',
      body: 'payload',
      authorization: 'Bearer secret',
    });
  });
});

describe('safeFetch: limits', () => {
  const base = () => `http://127.0.0.1:${port}`;

  it('refuses a body over maxBytes (announced by Content-Length) with 422', async () => {
    const err = await rejection(safeFetch(`${base()}/bytes?n=5000`, { policy: open, maxBytes: 4999 }));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/file too large \(more than 4\.9 KB\)/);
    const ok = await safeFetch(`${base()}/bytes?n=5000`, { policy: open, maxBytes: 5000 });
    expect(ok.body.length).toBe(5000);
  });

  it('stops reading a chunked body once it passes maxBytes', async () => {
    const err = await rejection(
      safeFetch(`${base()}/bytes?n=300000&chunked`, { policy: open, maxBytes: 100_000 }),
    );
    expect(err.message).toMatch(/file too large/);
    const ok = await safeFetch(`${base()}/bytes?n=100000&chunked`, { policy: open, maxBytes: 100_000 });
    expect(ok.body.length).toBe(100_000);
  });

  it('gives up when no complete answer arrives in time', async () => {
    const err = await rejection(safeFetch(`${base()}/hang`, { policy: open, timeoutMs: 300 }));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/no complete answer within 0\.3 s/);

    const slowBody = await rejection(safeFetch(`${base()}/trickle`, { policy: open, timeoutMs: 300 }));
    expect(slowBody.message).toMatch(/no complete answer within 0\.3 s/);
  });

  it('gives up when resolving and connecting take too long', async () => {
    const never: Resolve = () => new Promise(() => {});
    const err = await rejection(
      safeFetch(`http://slow.example.test:${port}/file`, {
        policy: open,
        resolve: never,
        connectTimeoutMs: 200,
      }),
    );
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/no connection within 0\.2 s/);
    expect(connections).toBe(0);
  });

  it('answers a final non-2xx with 422 "could not read <url>: HTTP 404", or returns it on request', async () => {
    const err = await rejection(safeFetch(`${base()}/status?code=404`, { policy: open }));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toBe(`could not read http://127.0.0.1:${port}/status?…: HTTP 404`);
    const res = await safeFetch(`${base()}/status?code=500`, { policy: open, rejectHttpErrors: false });
    expect(res.status).toBe(500);
    expect(res.body.toString()).toBe('nope');
  });

  it('keeps userinfo and query strings out of error messages, and sends userinfo as Basic auth', async () => {
    const err = await rejection(
      safeFetch(`http://alice:s3cret@127.0.0.1:${port}/file?token=t0ken`, { policy: strict }),
    );
    expect(err.message).not.toMatch(/alice|s3cret|t0ken/);
    const res = await safeFetch(`http://alice:s3cret@127.0.0.1:${port}/echo`, { policy: open });
    const expected = `Basic ${Buffer.from('alice:s3cret').toString('base64')}`;
    expect(JSON.parse(res.body.toString()).authorization).toBe(expected);
  });

  it('passes the caller abort reason through', async () => {
    const controller = new AbortController();
    const pending = safeFetch(`${base()}/hang`, { policy: open, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    await expect(pending).rejects.toThrow('job cancelled');
  });
});

describe('safeFetch: own stored files', () => {
  function ownFiles(files: Record<string, string>): OwnFiles & { reads: string[] } {
    const reads: string[] = [];
    return {
      baseUrl: 'http://localhost:8787/v2/files/',
      reads,
      async read(url: URL) {
        reads.push(url.pathname);
        const body = files[url.pathname];
        return body === undefined ? null : { body: Buffer.from(body), contentType: 'image/webp' };
      },
    };
  }

  it('reads files under baseUrl with read(), never over the network', async () => {
    const own = ownFiles({ '/v2/files/up_1/content': 'WEBP' });
    const res = await safeFetch('http://localhost:8787/v2/files/up_1/content', {
      policy: strict,
      ownFiles: own,
    });
    expect(res).toMatchObject({
      status: 200,
      contentType: 'image/webp',
      finalUrl: `${own.baseUrl}up_1/content`,
    });
    expect(res.body.toString()).toBe('WEBP');
    expect(own.reads).toEqual(['/v2/files/up_1/content']);
    expect(connections).toBe(0);
  });

  it('answers a missing own file with 422', async () => {
    const err = await rejection(
      safeFetch('http://localhost:8787/v2/files/nope', { policy: strict, ownFiles: ownFiles({}) }),
    );
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/no such file/);
  });

  it('does not take look-alike URLs for own files', async () => {
    const own = ownFiles({});
    for (const url of [
      'http://localhost:8787/v2/files-evil/x',
      'http://localhost:8788/v2/files/x',
      'https://localhost:8787/v2/files/x',
      'http://localhost:8787.evil.example/v2/files/x',
    ]) {
      await rejection(safeFetch(url, { policy: strict, ownFiles: own, resolve: fakeDns({}) }));
    }
    expect(own.reads).toEqual([]);
    // Path tricks are resolved by the URL parser before the comparison.
    await rejection(safeFetch('http://localhost:8787/v2/files/../admin', { policy: strict, ownFiles: own }));
    expect(own.reads).toEqual([]);
  });

  it('applies maxBytes to own files', async () => {
    const own = ownFiles({ '/v2/files/big': 'x'.repeat(100) });
    const err = await rejection(
      safeFetch(`${own.baseUrl}big`, { policy: strict, ownFiles: own, maxBytes: 99 }),
    );
    expect(err.message).toMatch(/file too large/);
  });

  it('reads an own file reached by a redirect', async () => {
    const own = ownFiles({ '/v2/files/up_2/content': 'FROM STORE' });
    const dns = fakeDns({ 'files.example.test': ['127.0.0.1'] });
    const res = await safeFetch(
      `http://files.example.test:${port}/redirect?to=${encodeURIComponent(`${own.baseUrl}up_2/content`)}`,
      { policy: strict, resolve: dns, checkAddress: allowOnly('files.example.test'), ownFiles: own },
    );
    expect(res.body.toString()).toBe('FROM STORE');
    expect(connections).toBe(1);
  });
});

describe('safeFetchStream', () => {
  it('streams the body and errors the stream when it passes maxBytes', async () => {
    const ok = await safeFetchStream(`http://127.0.0.1:${port}/bytes?n=3000&chunked`, { policy: open });
    let total = 0;
    for await (const chunk of ok.body) total += (chunk as Buffer).length;
    expect(total).toBe(3000);

    const big = await safeFetchStream(`http://127.0.0.1:${port}/bytes?n=300000&chunked`, {
      policy: open,
      maxBytes: 1000,
    });
    expect(big.status).toBe(200);
    const err = await rejection(
      (async () => {
        for await (const _chunk of big.body) {
          // drain
        }
      })(),
    );
    expect(err.message).toMatch(/file too large/);
  });
});
