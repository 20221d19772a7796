import { describe, expect, it } from 'vitest';
import {
  ApiKey,
  CreateApiKeyRequest,
  createApiKey,
  listApiKeys,
  PersonEntry,
  revealApiKey,
  SHARES_PER_KEY_MAX,
  ShareApiKeyRequest,
  ShareApiKeyResponse,
  ShareEntry,
  shareApiKey,
} from './api-keys.ts';
import { ERROR_STATUS } from './errors.ts';
import { freshApiKey, issuesOf, parseOk } from './test-fixtures.ts';

const USER = '0b9a7f8e-1111-4222-8333-944455556666';
const person = { user_id: USER, email: 'ada@example.com', display_name: 'Ada', avatar_url: null };

/** A valid address of exactly `length` characters. */
function emailOf(length: number): string {
  const domain = `${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`;
  return `${'a'.repeat(length - domain.length - 1)}@${domain}`;
}

describe('POST /api-keys/{id}/shares (spec 4.11)', () => {
  const emails = (n: number) => Array.from({ length: n }, (_, i) => `p${i}@example.com`);

  it('takes 1 to 20 emails', () => {
    expect(issuesOf(ShareApiKeyRequest, { emails: emails(0) })).toEqual(['emails: too_small']);
    expect(issuesOf(ShareApiKeyRequest, { emails: emails(1) })).toEqual([]);
    expect(issuesOf(ShareApiKeyRequest, { emails: emails(20) })).toEqual([]);
    expect(issuesOf(ShareApiKeyRequest, { emails: emails(21) })).toEqual(['emails: too_big']);
  });

  it('takes emails of at most 254 characters', () => {
    expect(emailOf(254)).toHaveLength(254);
    expect(issuesOf(ShareApiKeyRequest, { emails: [emailOf(254)] })).toEqual([]);
    expect(issuesOf(ShareApiKeyRequest, { emails: [emailOf(255)] })).toEqual(['emails.0: too_big']);
    expect(issuesOf(ShareApiKeyRequest, { emails: ['not-an-email'] })).toEqual(['emails.0: invalid_format']);
  });

  it('normalises addresses (trim, lower case)', () => {
    expect(parseOk(ShareApiKeyRequest, { emails: ['  Ada@Example.COM '] }).emails).toEqual([
      'ada@example.com',
    ]);
  });

  it('answers { not_found, owner, shares }', () => {
    const answer = {
      not_found: ['x@example.com'],
      owner: person,
      shares: [{ ...person, shared_at: '2025-01-01T00:00:00Z' }],
    };
    expect(issuesOf(ShareApiKeyResponse, answer)).toEqual([]);
    expect(issuesOf(ShareApiKeyResponse, { ...answer, not_found: undefined })).toEqual([
      'not_found: invalid_type',
    ]);
  });

  it('needs a session, is rate limited and caps a key at 50 people with share_limit_reached (422)', () => {
    expect(shareApiKey.auth).toBe('session');
    expect(shareApiKey.errors).toContain('rate_limited');
    expect(shareApiKey.errors).toContain('share_limit_reached');
    expect(SHARES_PER_KEY_MAX).toBe(50);
    expect(ERROR_STATUS.share_limit_reached).toBe(422);
  });
});

describe('person and share entries (spec 2.11)', () => {
  it('has a UUID user_id, and shared_at on shares', () => {
    expect(issuesOf(PersonEntry, person)).toEqual([]);
    expect(issuesOf(PersonEntry, { ...person, user_id: 'user_1' })).toEqual(['user_id: invalid_format']);
    expect(issuesOf(ShareEntry, person)).toEqual(['shared_at: invalid_type']);
  });
});

describe('POST /api-keys/{id}/reveal (spec 4.11)', () => {
  it('needs a session, is never cached and may answer api_key_not_revealable', () => {
    expect(revealApiKey.auth).toBe('session');
    expect(revealApiKey.noStore).toBe(true);
    expect('body' in revealApiKey).toBe(false);
    expect(revealApiKey.errors).toContain('api_key_not_revealable');
    expect(revealApiKey.responses[200].schema.safeParse({ api_key: 'mk_live_abc' }).success).toBe(true);
  });
});

describe('API keys (ours)', () => {
  it('creates with a name of 1 to 100 characters, not revealable by default', () => {
    expect(parseOk(CreateApiKeyRequest, { name: 'ci' }).revealable).toBe(false);
    expect(issuesOf(CreateApiKeyRequest, { name: '' })).toEqual(['name: too_small']);
    expect(issuesOf(CreateApiKeyRequest, { name: 'n'.repeat(100) })).toEqual([]);
    expect(issuesOf(CreateApiKeyRequest, { name: 'n'.repeat(101) })).toEqual(['name: too_big']);
    expect(createApiKey.noStore).toBe(true);
  });

  it('lists owned, team or shared keys', () => {
    expect(parseOk(listApiKeys.query, { filter: 'shared' })).toMatchObject({
      filter: 'shared',
      include_revoked: false,
    });
    expect(issuesOf(listApiKeys.query, { filter: 'mine' })).toEqual(['filter: invalid_value']);
  });

  it('never carries the secret in the record', () => {
    const key = freshApiKey(person, { id: 'key_abc', team_id: USER });
    expect(issuesOf(ApiKey, key)).toEqual([]);
    expect(parseOk(ApiKey, { ...key, secret: 'mk_live_full' })).not.toHaveProperty('secret');
    expect(issuesOf(ApiKey, { ...key, id: 'abc' })).toEqual(['id: invalid_format']);
  });
});
