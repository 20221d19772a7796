import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { AppError } from '../errors.ts';
import {
  assertAddressAllowed,
  assertUrlAllowed,
  blockedDomainOf,
  describeUrl,
  parseFetchUrl,
  type UrlPolicy,
  urlPolicyFromConfig,
} from './url-policy.ts';

const strict: UrlPolicy = {
  blockedDomains: ['blocked.example', 'xn--bcher-kva.example'],
  allowPrivateNetwork: false,
};
const open: UrlPolicy = { ...strict, allowPrivateNetwork: true };

function caught(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

describe('urlPolicyFromConfig', () => {
  it('takes BLOCKED_DOMAINS and ALLOW_PRIVATE_NETWORK from the environment', () => {
    const policy = urlPolicyFromConfig(
      loadConfig({
        BLOCKED_DOMAINS: ' Evil.example , .bad.test., bücher.example',
        ALLOW_PRIVATE_NETWORK: 'on',
      }),
    );
    expect(policy).toEqual({
      blockedDomains: ['evil.example', 'bad.test', 'xn--bcher-kva.example'],
      allowPrivateNetwork: true,
    });
    expect(urlPolicyFromConfig(loadConfig({}))).toEqual({ blockedDomains: [], allowPrivateNetwork: false });
  });
});

describe('parseFetchUrl', () => {
  it.each([
    'file:///etc/passwd',
    'ftp://example.com/a',
    'gopher://example.com/',
    'data:text/plain,hi',
    'javascript:alert(1)',
  ])('refuses the scheme of %s with 422 invalid_request', (url) => {
    const err = caught(() => parseFetchUrl(url));
    expect(err.code).toBe('invalid_request');
    expect(err.status).toBe(422);
    expect(err.message).toMatch(/only http: and https:/);
  });

  it.each(['not a url', 'http://', 'http://1.2.3.4.5/', 'http://[::1/'])(
    'refuses the malformed URL %s with 422',
    (url) => {
      const err = caught(() => parseFetchUrl(url));
      expect(err.code).toBe('invalid_request');
      expect(err.status).toBe(422);
      expect(err.message).toMatch(/not a valid URL/);
    },
  );

  it('accepts http and https', () => {
    expect(parseFetchUrl('https://example.com/a?b=c').href).toBe('https://example.com/a?b=c');
    expect(parseFetchUrl(new URL('http://example.com')).href).toBe('http://example.com/');
  });
});

describe('blockedDomainOf', () => {
  it('blocks the domain and its subdomains, not look-alikes', () => {
    expect(blockedDomainOf('blocked.example', strict)).toBe('blocked.example');
    expect(blockedDomainOf('cdn.eu.blocked.example', strict)).toBe('blocked.example');
    expect(blockedDomainOf('BLOCKED.example.', strict)).toBe('blocked.example');
    expect(blockedDomainOf('evil-blocked.example', strict)).toBeNull();
    expect(blockedDomainOf('blocked.example.com', strict)).toBeNull();
    expect(blockedDomainOf('example', strict)).toBeNull();
  });
});

describe('assertUrlAllowed', () => {
  it.each([
    'http://blocked.example/a.png',
    'https://BLOCKED.EXAMPLE./a.png',
    'http://img.cdn.blocked.example:8080/a.png',
    'http://blocked%2Eexample/a.png',
    'http://bücher.example/a.png',
    'http://www.xn--bcher-kva.example/',
  ])('refuses %s: blocked domain, 403 forbidden, even with ALLOW_PRIVATE_NETWORK', (url) => {
    for (const policy of [strict, open]) {
      const err = caught(() => assertUrlAllowed(url, policy));
      expect(err.code).toBe('forbidden');
      expect(err.status).toBe(403);
      expect(err.message).toMatch(/blocked domain/);
    }
  });

  it('lets a look-alike of a blocked domain through', () => {
    expect(assertUrlAllowed('http://evil-blocked.example/', strict).hostname).toBe('evil-blocked.example');
    expect(assertUrlAllowed('http://blocked.example.com/', strict).hostname).toBe('blocked.example.com');
  });

  // The WHATWG URL parser turns every IPv4 spelling into dotted decimal and every IPv6 spelling into its
  // compressed form; the check sees what the connection would use.
  it.each([
    ['http://127.0.0.1/', /127\.0\.0\.1 is a loopback/],
    ['http://0177.0.0.1/', /127\.0\.0\.1 is a loopback/],
    ['http://2130706433/', /127\.0\.0\.1 is a loopback/],
    ['http://0x7f.1/', /127\.0\.0\.1 is a loopback/],
    ['http://0x7f000001/', /127\.0\.0\.1 is a loopback/],
    ['http://127.1/', /127\.0\.0\.1 is a loopback/],
    ['http://[::1]/', /loopback/],
    ['http://[::ffff:7f00:1]/', /IPv4-mapped form of 127\.0\.0\.1/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped form of 127\.0\.0\.1/],
    ['http://[0:0:0:0:0:ffff:127.0.0.1]/', /IPv4-mapped form of 127\.0\.0\.1/],
    ['http://[::127.0.0.1]/', /IPv4-compatible form of 127\.0\.0\.1/],
    ['http://[64:ff9b::169.254.169.254]/', /NAT64 form of 169\.254\.169\.254/],
    ['http://[2002:a9fe:a9fe::]/', /6to4 form of 169\.254\.169\.254/],
    ['http://169.254.169.254/latest/meta-data', /link-local/],
    ['http://0251.0376.0251.0376/', /169\.254\.169\.254 is a link-local/],
    ['http://0.0.0.0/', /this network/],
    ['http://0/', /this network/],
    ['http://10.1.2.3/', /private/],
    ['http://[fd00::1]/', /unique local/],
    ['http://[fe80::1]/', /link-local/],
    ['https://192.168.0.1:8443/', /private/],
  ])('refuses the IP literal of %s with 403 forbidden', (url, reason) => {
    const err = caught(() => assertUrlAllowed(url, strict));
    expect(err.code).toBe('forbidden');
    expect(err.status).toBe(403);
    expect(err.message).toMatch(reason);
    expect(err.message).toMatch(/^URL http/);
    // ALLOW_PRIVATE_NETWORK lifts the address check.
    expect(assertUrlAllowed(url, open)).toBeInstanceOf(URL);
  });

  it('lets public IP literals and host names through (names are checked when connecting)', () => {
    expect(assertUrlAllowed('http://8.8.8.8/', strict).hostname).toBe('8.8.8.8');
    expect(assertUrlAllowed('http://[2606:4700:4700::1111]/', strict).hostname).toBe(
      '[2606:4700:4700::1111]',
    );
    expect(assertUrlAllowed('http://localhost/', strict).hostname).toBe('localhost');
  });

  it('uses the injected address check for IP literals', () => {
    const seen: string[] = [];
    assertUrlAllowed('http://127.0.0.1/', strict, (ip) => seen.push(ip));
    assertUrlAllowed('http://[::ffff:127.0.0.1]/', strict, (ip) => seen.push(ip));
    expect(seen).toEqual(['127.0.0.1', '::ffff:7f00:1']);
  });

  it('keeps credentials and query strings out of messages', () => {
    const err = caught(() =>
      assertUrlAllowed('http://alice:s3cret@127.0.0.1:81/a/b?token=t0ken#frag', strict),
    );
    expect(err.message).toContain('http://127.0.0.1:81/a/b?…');
    expect(err.message).not.toMatch(/alice|s3cret|t0ken|frag/);
    const scheme = caught(() => assertUrlAllowed('ftp://bob:pw@example.com/x?k=v', strict));
    expect(scheme.message).not.toMatch(/bob|pw|k=v/);
  });
});

describe('assertAddressAllowed', () => {
  it('refuses non-public addresses, names the host and the address, and allows them on a private network', () => {
    const err = caught(() =>
      assertAddressAllowed('127.0.0.1', strict, new URL('http://files.example.test/a')),
    );
    expect(err.code).toBe('forbidden');
    expect(err.message).toBe(
      'URL http://files.example.test/a is not allowed: files.example.test resolves to 127.0.0.1, which is a loopback address (127.0.0.0/8)',
    );
    expect(caught(() => assertAddressAllowed('::1', strict)).message).toMatch(/^Address ::1 is not allowed/);
    expect(() => assertAddressAllowed('93.184.215.14', strict)).not.toThrow();
    expect(() => assertAddressAllowed('127.0.0.1', open)).not.toThrow();
    expect(() => assertAddressAllowed('not-an-ip', strict)).toThrow(AppError);
  });
});

describe('describeUrl', () => {
  it('drops userinfo, query and fragment', () => {
    expect(describeUrl('https://u:p@example.com:444/x/y?sig=1#z')).toBe('https://example.com:444/x/y?…');
    expect(describeUrl('https://example.com/x')).toBe('https://example.com/x');
    expect(describeUrl('file:///etc/passwd')).toBe('file:…');
  });
});
