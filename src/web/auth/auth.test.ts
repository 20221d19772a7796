import { describe, expect, it } from 'vitest';
import { serverSettingsStore } from '../api/server-settings.ts';
import { auth, forgetCredentials, signIn } from './auth.ts';
import { currentSession, sessionStore } from './session.ts';

const signedIn = (expiresAt: string) => ({
  api_key: 'mk_test',
  email: 'ada@example.com',
  balance_cents: 1000,
  access_token: 'jwt.test.token',
  token_type: 'Bearer' as const,
  expires_at: expiresAt,
});

describe('auth state', () => {
  it('keeps a session across reloads until it expires', () => {
    signIn(signedIn('2099-01-01T00:00:00Z'));
    expect(JSON.parse(window.localStorage.getItem('media-console:session') ?? 'null')).toEqual({
      token: 'jwt.test.token',
      expiresAt: '2099-01-01T00:00:00Z',
      email: 'ada@example.com',
    });
    expect(currentSession()?.token).toBe('jwt.test.token');
    expect(auth.isAuthenticated()).toBe(true);
    expect(currentSession(Date.parse('2099-01-01T00:00:00Z'))).toBeNull();
  });

  it('treats an expired or damaged session as signed out', () => {
    signIn(signedIn('2000-01-01T00:00:00Z'));
    expect(auth.isAuthenticated()).toBe(false);
    window.localStorage.setItem('media-console:session', '{"token":');
    expect(sessionStore.get()).toBeNull();
    expect(auth.isAuthenticated()).toBe(false);
  });

  it('counts a custom API key as signed in, and forgets it with the session', () => {
    serverSettingsStore.set({ baseUrl: 'https://api.example.com/v2', apiKey: 'mk_live_123' });
    expect(auth.isAuthenticated()).toBe(true);
    signIn(signedIn('2099-01-01T00:00:00Z'));
    forgetCredentials();
    expect(auth.isAuthenticated()).toBe(false);
    expect(serverSettingsStore.get()).toEqual({ baseUrl: 'https://api.example.com/v2', apiKey: null });
  });
});
