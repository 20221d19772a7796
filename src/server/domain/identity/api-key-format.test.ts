import { describe, expect, it } from 'vitest';
import {
  API_KEY_PREFIX,
  displayParts,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
} from './api-key-format.ts';

describe('API key format', () => {
  it('is the product prefix, 32 random base62 characters and a 6-character checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^mcsk_[0-9A-Za-z]{38}$/);
    expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
    expect(keys.size).toBe(2000);
  });

  it('detects every single-character typo in the body', () => {
    const key = generateApiKey();
    for (let i = API_KEY_PREFIX.length; i < key.length; i++) {
      const replacement = key[i] === 'x' ? 'y' : 'x';
      expect(isWellFormedApiKey(key.slice(0, i) + replacement + key.slice(i + 1)), `position ${i}`).toBe(
        false,
      );
    }
  });

  it('refuses other shapes', () => {
    const key = generateApiKey();
    expect(isWellFormedApiKey(key.slice(1))).toBe(false);
    expect(isWellFormedApiKey(`${key}a`)).toBe(false);
    expect(isWellFormedApiKey(key.replace('mcsk_', 'sk_12'))).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(0, -1)}-`)).toBe(false);
  });

  it('hashes to 32 bytes and shows only a start and the last four characters', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toHaveLength(32);
    const { start, last4 } = displayParts(key);
    expect(key.startsWith(start)).toBe(true);
    expect(key.endsWith(last4)).toBe(true);
    expect(start.length + last4.length).toBeLessThan(key.length / 2);
  });
});
