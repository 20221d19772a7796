import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateCode } from './otp.ts';
import { open, seal } from './sealed-box.ts';

describe('sign-in codes', () => {
  it('are six digits, leading zeros kept, spread over the whole range', () => {
    const codes = Array.from({ length: 5000 }, generateCode);
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    const firstDigits = new Set(codes.map((c) => c[0]));
    expect(firstDigits.size).toBe(10);
    expect(new Set(codes).size).toBeGreaterThan(4900);
  });
});

describe('sealed box', () => {
  it('round-trips, and refuses a tampered box or another key', () => {
    const key = randomBytes(32);
    const box = seal(key, 'mcsk_secret');
    expect(open(key, box)).toBe('mcsk_secret');
    expect(box.toString('utf8')).not.toContain('mcsk_secret');
    const tampered = Buffer.from(box);
    tampered[14] = (tampered[14] ?? 0) ^ 1;
    expect(() => open(key, tampered)).toThrow();
    expect(() => open(randomBytes(32), box)).toThrow();
  });
});
