import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { type PreloadPlan, preloadScript, routeAddress } from './console-preload.ts';

describe("the console's early preload", () => {
  it("reads each route file's address as the router does", () => {
    expect(routeAddress('_app')).toBe('layout');
    expect(routeAddress('_app.playground')).toEqual(['playground']);
    expect(routeAddress('_app.jobs.$jobId')).toEqual(['jobs', '$']);
    expect(routeAddress('_app.files_.$fileId')).toEqual(['files', '$']);
    expect(routeAddress('_app.oauth.consent')).toEqual(['oauth', 'consent']);
    expect(routeAddress('_app.index')).toEqual([]);
    expect(routeAddress('sign-in')).toBeNull();
    expect(routeAddress('__root')).toBeNull();
  });

  const plan: PreloadPlan = {
    console: ['assets/console-a.js', 'assets/router-b.js'],
    pages: [
      { address: ['jobs'], files: ['assets/_app-c.js', 'assets/_app.jobs-d.js'] },
      { address: ['jobs', '$'], files: ['assets/_app-c.js', 'assets/_app.jobs._jobId-e.js'] },
    ],
  };

  /** Runs the script as a browser would, with this storage and address; the links it added. */
  function run(storage: Record<string, string>, pathname: string) {
    const links: Array<Record<string, string>> = [];
    const context = {
      localStorage: { getItem: (key: string) => storage[key] ?? null },
      location: { pathname },
      document: {
        createElement: () => ({}),
        head: { appendChild: (link: Record<string, string>) => links.push(link) },
      },
      Date,
      JSON,
    };
    vm.runInNewContext(preloadScript(plan, '/'), context);
    return links;
  }

  const session = (expiresAt: string) => ({
    'media-console:session': JSON.stringify({ token: 't', expiresAt, email: 'a@example.com' }),
  });

  it("signed in, asks for the console's code and the page's at this address, at low priority", () => {
    const links = run(session('2999-01-01T00:00:00Z'), '/jobs/job_123');
    expect(links.map((link) => link.href)).toEqual([
      '/assets/console-a.js',
      '/assets/router-b.js',
      '/assets/_app-c.js',
      '/assets/_app.jobs._jobId-e.js',
    ]);
    expect(links.every((link) => link.rel === 'modulepreload' && link.fetchPriority === 'low')).toBe(true);
    // An address no page answers: the console's code alone (the router shows its not-found page).
    expect(run(session('2999-01-01T00:00:00Z'), '/nowhere').map((link) => link.href)).toEqual([
      '/assets/console-a.js',
      '/assets/router-b.js',
    ]);
    // Signed in with an API key in the server settings, as auth.ts counts it.
    const withKey = { 'media-console:server': JSON.stringify({ baseUrl: null, apiKey: 'sk_1' }) };
    expect(run(withKey, '/jobs')).toHaveLength(4);
  });

  it('signed out, with an expired session or unreadable storage, asks for nothing', () => {
    expect(run({}, '/jobs')).toEqual([]);
    expect(run(session('2000-01-01T00:00:00Z'), '/jobs')).toEqual([]);
    expect(run({ 'media-console:session': '{not json' }, '/jobs')).toEqual([]);
  });
});
