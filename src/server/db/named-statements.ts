import type { Queryable } from './pool.ts';

/** Distinct statement texts named per process; any beyond go unnamed (a text with values written into it). */
const MAX_NAMED = 200;

const names = new Map<string, string>();

function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (!name && names.size < MAX_NAMED) {
    name = `pgboss_${names.size}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs pg-boss's statements as named ones: PostgreSQL plans a named statement once per connection and
 * keeps the plan, where pg-boss's own unnamed statements were planned again at every fetch, send and
 * completion. Only statements with values are named; one without may be several statements (pg-boss's
 * schema and queue scripts), which cannot be prepared. Each name stands for one text in this process.
 */
export function namedStatements(client: Queryable) {
  return {
    executeSql: (text: string, values: unknown[] = []) => {
      const name = values.length ? nameOf(text) : undefined;
      return name ? client.query({ name, text, values }) : client.query(text, values);
    },
  };
}
