import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorCommand } from '../src/server/testing/operator-command.ts';
import { person } from '../src/server/testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../src/server/testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '100' }, { work: false });
});
afterAll(() => t.close());

const credits = (...args: string[]) => operatorCommand(t, 'scripts/credits.ts')(...args);

describe('npm run credits', () => {
  it("grants credits to a person's team by email, written to the ledger with its note", async () => {
    const owner = await person(t);
    const granted = await credits('grant', owner.email.toUpperCase(), '250', 'pilot', 'top-up');
    expect(granted.code).toBe(0);
    expect(granted.out).toContain('Granted 250 credits');
    expect(granted.out).toContain('350 credits');
    expect((await owner.client.getBalance()).balance_cents).toBe(350);
    const [entry] = (await owner.client.listLedgerEntries({ query: { kind: 'grant', limit: 1 } })).data;
    expect(entry).toMatchObject({ delta_cents: 250, balance_after_cents: 350, note: 'pilot top-up' });
    const shown = await credits('balance', owner.teamId);
    expect([shown.code, shown.out]).toEqual([0, expect.stringContaining('350 credits')]);
  });

  it('refuses an unknown team and an amount that is not a positive whole number', async () => {
    const unknown = await credits('grant', 'nobody@example.com', '10');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('No team is named by nobody@example.com');
    for (const amount of ['0', '2.5']) {
      const refused = await credits('grant', 'nobody@example.com', amount);
      expect(refused.code, amount).toBe(2);
      expect(refused.out).toContain('usage: npm run credits');
    }
  });
});
