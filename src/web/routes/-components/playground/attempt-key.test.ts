import { describe, expect, it } from 'vitest';
import { type Attempt, attemptFor, DOUBLE_SUBMIT_WINDOW_MS, fingerprintOf } from './attempt-key.ts';

let counter = 0;
const newKey = () => `key-${++counter}`;

describe('Idempotency-Keys per submit attempt', () => {
  it('fingerprints requests whatever their key order', () => {
    expect(fingerprintOf({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(
      fingerprintOf({ b: { d: 'x', c: [1, 2] }, a: 1 }),
    );
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
    expect(fingerprintOf({ a: 1, b: undefined })).toBe(fingerprintOf({ a: 1 }));
  });

  it('starts a new attempt with a fresh key', () => {
    const first = attemptFor(null, 'f', 0, newKey);
    expect(first).toMatchObject({ fingerprint: 'f', phase: 'pending' });
    expect(attemptFor(first, 'other', 1, newKey).key).not.toBe(first.key);
  });

  it('retries a failed attempt with the same key (the server may have made the job already)', () => {
    const first = attemptFor(null, 'f', 0, newKey);
    const failed: Attempt = { ...first, phase: 'failed', at: 10 };
    expect(attemptFor(failed, 'f', 60_000, newKey).key).toBe(first.key);
  });

  it('treats a second click right after a success as the same attempt, and a later run as a new one', () => {
    const first = attemptFor(null, 'f', 0, newKey);
    const done: Attempt = { ...first, phase: 'succeeded', at: 100 };
    expect(attemptFor(done, 'f', 100 + DOUBLE_SUBMIT_WINDOW_MS - 1, newKey).key).toBe(first.key);
    expect(attemptFor(done, 'f', 100 + DOUBLE_SUBMIT_WINDOW_MS, newKey).key).not.toBe(first.key);
  });

  it('makes keys the server accepts (1 to 255 characters) by default', () => {
    const { key } = attemptFor(null, 'f', 0);
    expect(key.length).toBeGreaterThan(0);
    expect(key.length).toBeLessThanOrEqual(255);
  });
});
