import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

const withCode = (message: string, fields: Record<string, string>) =>
  Object.assign(new Error(message), fields);

describe('isDatabaseUnavailable', () => {
  it('knows PostgreSQL going away, a refused or cut socket, and node-postgres words for it', () => {
    expect(isDatabaseUnavailable(withCode('the database system is starting up', { code: '57P03' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(withCode('terminating connection', { code: '57P01' }))).toBe(true);
    expect(
      isDatabaseUnavailable(withCode('connect ECONNREFUSED', { code: 'ECONNREFUSED', syscall: 'connect' })),
    ).toBe(true);
    expect(isDatabaseUnavailable(withCode('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('does not take a request whose client went away for an outage', () => {
    // What Node's HTTP server fails a request body with when its client disconnects mid-body.
    const aborted = withCode('aborted', { code: 'ECONNRESET' });
    expect(isDatabaseUnavailable(aborted)).toBe(false);
    expect(isDatabaseUnavailable(new Error('bug'))).toBe(false);
  });
});
