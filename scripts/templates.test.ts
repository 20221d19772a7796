import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorCommand } from '../src/server/testing/operator-command.ts';
import { createTestApp, signUp, type TestApp } from '../src/server/testing/test-app.ts';

let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
  client = t.clientFor((await signUp(t)).api_key);
});
afterAll(() => t.close());

const templates = (...args: string[]) => operatorCommand(t, 'templates')(...args);

describe('npm run templates', () => {
  it('lists pending templates, then approves or rejects one by id', async () => {
    const body = {
      name: 'Operator test',
      tool: 'render' as const,
      request: { duration: 1, layers: [{ type: 'text', text: 'hi' }] },
    };
    const a = await client.publishTemplate({ body });
    const b = await client.publishTemplate({ body: { ...body, name: 'Operator test two' } });

    const pending = await templates('pending');
    expect(pending.code).toBe(0);
    expect(pending.out).toContain(a.id);
    expect(pending.out).toContain(b.id);

    expect(await templates('approve', a.id)).toEqual({
      code: 0,
      out: `${a.id} "Operator test" is now approved.\n`,
    });
    expect((await templates('reject', b.id)).code).toBe(0);
    expect((await client.getTemplate({ params: { id: a.id } })).status).toBe('approved');
    expect((await client.getTemplate({ params: { id: b.id } })).status).toBe('rejected');
    expect((await templates('pending')).out).not.toContain(a.id);
  }, 60_000);

  it('says what is wrong with an unknown id or command', async () => {
    const unknown = await templates('approve', 'tpl_unknown');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('No template tpl_unknown.');
    expect((await templates('publish')).code).toBe(2);
  }, 60_000);
});
