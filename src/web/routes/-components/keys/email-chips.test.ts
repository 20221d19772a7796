import { describe, expect, it } from 'vitest';
import { addEmails, emailProblem, ShareForm, splitEmails } from './email-chips.ts';

describe('email chips', () => {
  it('splits on commas, semicolons and whitespace', () => {
    expect(splitEmails(' a@x.io, b@x.io;c@x.io\n d@x.io ,, ')).toEqual([
      'a@x.io',
      'b@x.io',
      'c@x.io',
      'd@x.io',
    ]);
  });

  it('judges an address as the server does: a real address of at most 254 characters', () => {
    expect(emailProblem('ana@example.com')).toBeNull();
    expect(emailProblem('ana@')).toBe('Not an email address.');
    const local = 'a'.repeat(64);
    const longest = `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(254 - 64 - 1 - 63 - 1 - 63 - 1)}`;
    expect(longest).toHaveLength(254);
    expect(emailProblem(longest)).toBeNull();
    expect(emailProblem(`x${longest}`)).toBe('Longer than 254 characters.');
  });

  it('drops duplicates in any case and hands back what passes the maximum', () => {
    const start = ['ana@example.com'];
    expect(addEmails(start, ['ANA@example.com', 'bo@example.com'])).toEqual({
      chips: ['ana@example.com', 'bo@example.com'],
      leftOver: [],
    });
    const nineteen = Array.from({ length: 19 }, (_, i) => `p${i}@example.com`);
    const { chips, leftOver } = addEmails(nineteen, ['q1@example.com', 'q2@example.com', 'q3@example.com']);
    expect(chips).toHaveLength(20);
    expect(chips.at(-1)).toBe('q1@example.com');
    expect(leftOver).toEqual(['q2@example.com', 'q3@example.com']);
  });

  it('accepts 1 to 20 valid addresses and nothing else', () => {
    expect(ShareForm.safeParse({ emails: [] }).success).toBe(false);
    expect(ShareForm.safeParse({ emails: ['ana@example.com'] }).success).toBe(true);
    expect(ShareForm.safeParse({ emails: ['ana@example.com', 'nope'] }).success).toBe(false);
    const twenty = Array.from({ length: 20 }, (_, i) => `p${i}@example.com`);
    expect(ShareForm.safeParse({ emails: twenty }).success).toBe(true);
    expect(ShareForm.safeParse({ emails: [...twenty, 'z@example.com'] }).success).toBe(false);
  });
});
