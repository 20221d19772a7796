import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { decodeCursor, decodeJsonCursor, encodeCursor, encodeJsonCursor, splitPage } from './page-cursor.ts';

function refusal(read: () => unknown): AppError {
  try {
    read();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the cursor was accepted');
}

describe('page cursors', () => {
  it('give back the instant (to the microsecond) and id they were made from', () => {
    const cursor = encodeCursor('2026-11-25T03:04:05.123456Z', 'job_abc');
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ instant: '2026-11-25T03:04:05.123456Z', id: 'job_abc' });
    expect(decodeJsonCursor(encodeJsonCursor(['Warm', 'preset_1']), (v) => v)).toEqual(['Warm', 'preset_1']);
  });

  it.each([
    ['not base64 of anything', () => decodeCursor('not-a-cursor')],
    ['no id', () => decodeCursor(Buffer.from('2026-11-25T03:04:05Z').toString('base64url'))],
    ['not an instant', () => decodeCursor(encodeCursor('yesterday', 'job_abc'))],
    ['an id of another form', () => decodeCursor(encodeCursor('2026-11-25T03:04:05Z', 'job_abc'), /^\d+$/)],
    ['not JSON', () => decodeJsonCursor('garbage', (v) => v)],
    ['JSON of another shape', () => decodeJsonCursor(encodeJsonCursor({ a: 1 }), () => null)],
  ])('refuse %s with a 422 naming query.cursor', (_, read) => {
    const error = refusal(read);
    expect(error.status).toBe(422);
    expect(error.code).toBe('invalid_request');
    expect(JSON.stringify(error.details)).toContain('query.cursor');
  });

  it('split a read of one row more than the page into the page and the next cursor, made from its last row', () => {
    const cursorOf = (row: number) => `after ${row}`;
    expect(splitPage([1, 2, 3], 2, cursorOf)).toEqual({ page: [1, 2], nextCursor: 'after 2' });
    expect(splitPage([1, 2], 2, cursorOf)).toEqual({ page: [1, 2], nextCursor: null });
    expect(splitPage([], 2, cursorOf)).toEqual({ page: [], nextCursor: null });
  });
});
