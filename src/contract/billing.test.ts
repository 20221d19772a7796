import { describe, expect, it } from 'vitest';
import { Balance, LEDGER_KINDS, LedgerEntry, LedgerListQuery } from './billing.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const TEAM = '0b9a7f8e-1111-4222-8333-944455556666';
const entry = {
  id: 'led_1',
  team_id: TEAM,
  delta_cents: -3,
  kind: 'hold',
  balance_after_cents: 97,
  job_id: 'job_1',
  tool: 'image',
  model: 'flux-schnell',
  folder_id: null,
  api_key_id: 'key_abc',
  person_id: null,
  source: 'api',
  note: null,
  created_at: '2025-01-01T00:00:00Z',
};

describe('ledger entries', () => {
  it('take signed whole credits', () => {
    expect(issuesOf(LedgerEntry, entry)).toEqual([]);
    expect(
      issuesOf(LedgerEntry, { ...entry, delta_cents: 5, kind: 'grant', job_id: null, tool: null }),
    ).toEqual([]);
    expect(issuesOf(LedgerEntry, { ...entry, delta_cents: 0.5 })).toEqual(['delta_cents: invalid_type']);
  });

  it('know the six kinds and the four sources', () => {
    expect(LEDGER_KINDS).toEqual(['grant', 'hold', 'settle', 'release', 'refund', 'adjustment']);
    expect(issuesOf(LedgerEntry, { ...entry, kind: 'charge' })).toEqual(['kind: invalid_value']);
    expect(issuesOf(LedgerEntry, { ...entry, source: 'mcp' })).toEqual([]);
    expect(issuesOf(LedgerEntry, { ...entry, source: 'unknown' })).toEqual(['source: invalid_value']);
  });

  it('filter by kind, job and dimensions', () => {
    expect(parseOk(LedgerListQuery, { kind: 'hold,settle', job: 'job_1', folder: 'none' })).toMatchObject({
      kind: ['hold', 'settle'],
      job: 'job_1',
      folder: 'none',
    });
    expect(issuesOf(LedgerListQuery, { kind: 'charge' })).toEqual(['kind.0: invalid_value']);
  });
});

describe('balance', () => {
  it('is never negative', () => {
    const balance = {
      team_id: TEAM,
      balance_cents: 100,
      held_cents: 3,
      as_of: '2025-01-01T00:00:00Z',
      top_up: { url: null, command: `npm run credits -- grant ${TEAM} <credits>` },
    };
    expect(issuesOf(Balance, balance)).toEqual([]);
    expect(issuesOf(Balance, { ...balance, balance_cents: -1 })).toEqual(['balance_cents: too_small']);
  });
});
