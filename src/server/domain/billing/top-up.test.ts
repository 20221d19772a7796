import { describe, expect, it } from 'vitest';
import { TopUp } from '../../../contract/billing.ts';
import { loadConfig } from '../../config.ts';
import { topUpFor } from './top-up.ts';

const TEAM = 'c0399080-8c70-427a-bb3b-897719ec946b';

describe('how a team gets more credits', () => {
  it("is the operator's top-up page for the team, when one is configured", () => {
    const { CREDITS_TOP_UP_URL } = loadConfig({
      CREDITS_TOP_UP_URL: 'https://shop.example/credits?team={team_id}',
    });
    const topUp = TopUp.parse(topUpFor(CREDITS_TOP_UP_URL, TEAM));
    expect(topUp.url).toBe(`https://shop.example/credits?team=${TEAM}`);
  });

  it('is always the exact command the operator runs on the server', () => {
    expect(topUpFor(undefined, TEAM)).toEqual({
      url: null,
      command: `npm run credits -- grant ${TEAM} <credits>`,
    });
  });

  it('refuses a top-up page that is not a web address at start-up', () => {
    expect(() => loadConfig({ CREDITS_TOP_UP_URL: 'javascript:alert(1)' })).toThrow(/CREDITS_TOP_UP_URL/);
  });
});
