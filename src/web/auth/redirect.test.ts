import { describe, expect, it } from 'vitest';
import { sanitizeRedirect } from './redirect.ts';
import { parseSignInSearch } from './sign-in-search.ts';

describe('sanitizeRedirect', () => {
  it('keeps paths of this app with their search and hash', () => {
    expect(sanitizeRedirect('/settings')).toBe('/settings');
    expect(sanitizeRedirect('/jobs?status=failed&tool=image#top')).toBe('/jobs?status=failed&tool=image#top');
    expect(sanitizeRedirect('/')).toBe('/');
  });

  it('normalises dot segments without leaving the app', () => {
    expect(sanitizeRedirect('/a/../settings')).toBe('/settings');
    expect(sanitizeRedirect('/../../etc')).toBe('/etc');
  });

  it.each([
    ['an absolute URL', 'https://evil.example/phish'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash trick', '/\\evil.example'],
    ['a tab-split scheme', '/\t/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'settings'],
    ['an empty string', ''],
    ['the sign-in page (loop)', '/sign-in?redirect=/settings'],
    ['something very long', `/${'a'.repeat(5000)}`],
  ])('refuses %s', (_, value) => {
    expect(sanitizeRedirect(value)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(sanitizeRedirect(42)).toBeNull();
    expect(sanitizeRedirect(undefined)).toBeNull();
  });
});

describe('sign-in search params', () => {
  it('keeps a safe redirect and drops an unsafe one', () => {
    expect(parseSignInSearch({ redirect: '/settings' })).toEqual({ redirect: '/settings' });
    expect(parseSignInSearch({ redirect: 'https://evil.example' }).redirect).toBeUndefined();
    expect(parseSignInSearch({ redirect: 12 }).redirect).toBeUndefined();
  });

  it('ignores an unknown reason instead of failing the page', () => {
    expect(parseSignInSearch({ reason: 'nope' }).reason).toBeUndefined();
    expect(parseSignInSearch({ reason: 'expired' }).reason).toBe('expired');
  });
});
