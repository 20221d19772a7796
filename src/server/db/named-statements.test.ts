import { describe, expect, it } from 'vitest';
import { namedStatements } from './named-statements.ts';
import type { Queryable } from './pool.ts';

/** A client that records what it was asked, in the two forms pg takes. */
function recordingClient() {
  const calls: unknown[][] = [];
  const client = {
    query: async (...args: unknown[]) => {
      calls.push(args);
      return { rows: [] };
    },
  };
  return { calls, client: client as unknown as Queryable };
}

describe('pg-boss statements run as named ones', () => {
  it('names a statement with values, the same name for the same text on any client', async () => {
    const a = recordingClient();
    const b = recordingClient();
    await namedStatements(a.client).executeSql('SELECT $1::int AS one', [1]);
    await namedStatements(b.client).executeSql('SELECT $1::int AS one', [2]);
    await namedStatements(a.client).executeSql('SELECT $1::int AS two', [3]);
    const [first, again, other] = [a.calls[0]![0], b.calls[0]![0], a.calls[1]![0]] as [
      { name: string },
      { name: string },
      { name: string },
    ];
    expect(first).toMatchObject({ text: 'SELECT $1::int AS one', values: [1] });
    expect(again.name).toBe(first.name);
    expect(other.name).not.toBe(first.name);
  });

  it('leaves a statement without values unnamed: it may be several, which cannot be prepared', async () => {
    const { calls, client } = recordingClient();
    await namedStatements(client).executeSql('BEGIN; SELECT 1; COMMIT;', []);
    await namedStatements(client).executeSql('SELECT 1', undefined as never);
    expect(calls).toEqual([
      ['BEGIN; SELECT 1; COMMIT;', []],
      ['SELECT 1', []],
    ]);
  });
});
