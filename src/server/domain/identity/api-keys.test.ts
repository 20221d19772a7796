import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Queryable } from '../../db/pool.ts';
import { generateApiKey } from './api-key-format.ts';
import { ApiKeyResolver } from './api-keys.ts';

/** A database holding one live key; it counts key lookups and can hold them open until released. */
function fakeDb() {
  const waiting: Array<() => void> = [];
  let held = false;
  let lookups = 0;
  const db = {
    async query(sql: string) {
      if (!sql.includes('secret_hash')) return { rows: [] }; // change checks, last-use writes
      lookups++;
      if (held) await new Promise<void>((resolve) => waiting.push(resolve));
      // As the database answers an unrestricted key: every restriction column null.
      return {
        rows: [
          {
            id: 'key_1',
            team_id: 'team_1',
            owner_person_id: 'person_1',
            role: 'owner',
            expires_at: null,
            grace_ends_at: null,
            allowed_tools: null,
            allowed_models: null,
            allowed_ips: null,
            read_only: false,
            rate_limit_per_minute: null,
            max_concurrent_jobs: null,
          },
        ],
      };
    },
  };
  return {
    resolver: new ApiKeyResolver(db as unknown as Queryable),
    lookups: () => lookups,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const resume of waiting.splice(0)) resume();
    },
  };
}

describe('API key lookups', () => {
  it('answers repeated lookups from the cache, and reads again once the key is forgotten', async () => {
    const { resolver, lookups } = fakeDb();
    const token = generateApiKey();
    expect((await resolver.resolve(token))?.apiKeyId).toBe('key_1');
    await resolver.resolve(token);
    expect(lookups()).toBe(1);
    resolver.forget('key_1');
    await resolver.resolve(token);
    expect(lookups()).toBe(2);
  });

  it('does not keep a lookup that was under way while the key was revoked', async () => {
    const { resolver, lookups, hold, release } = fakeDb();
    const token = generateApiKey();
    hold();
    const racing = resolver.resolve(token);
    await new Promise((resolve) => setImmediate(resolve));
    resolver.forget('key_1'); // the revocation commits while the read above is in flight
    release();
    await racing;
    await resolver.resolve(token);
    expect(lookups()).toBe(2); // the next request read the database again
  });

  it('refuses a malformed token without asking the database', async () => {
    const { resolver, lookups } = fakeDb();
    expect(await resolver.resolve('mcsk_not-a-key')).toBeNull();
    expect(lookups()).toBe(0);
  });

  describe('without waiting (resolveCached, for the fast path)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers only a valid key already looked up, and nothing once it is forgotten', async () => {
      const { resolver, lookups } = fakeDb();
      const token = generateApiKey();
      expect(resolver.resolveCached(token)).toBeUndefined();
      await resolver.resolve(token);
      expect(resolver.resolveCached(token)?.apiKeyId).toBe('key_1');
      expect(lookups()).toBe(1);
      resolver.forget('key_1');
      expect(resolver.resolveCached(token)).toBeUndefined();
      // A malformed key is cached as refused: still nothing here, the full path answers the 401.
      await resolver.resolve('mcsk_not-a-key');
      expect(resolver.resolveCached('mcsk_not-a-key')).toBeUndefined();
    });

    it('answers nothing while a check for changed keys is due or under way', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { resolver } = fakeDb();
      const token = generateApiKey();
      await resolver.resolve(token);
      expect(resolver.resolveCached(token)?.apiKeyId).toBe('key_1');
      vi.setSystemTime(Date.now() + 1_500); // the once-a-second check is due
      expect(resolver.resolveCached(token)).toBeUndefined();
      const checking = resolver.resolve(token); // the full path runs the check
      expect(resolver.resolveCached(token)).toBeUndefined();
      await checking;
      expect(resolver.resolveCached(token)?.apiKeyId).toBe('key_1');
    });
  });
});
