import { AppError } from '../../errors.ts';

/**
 * Opaque cursor of a newest-first listing: the last row's instant (to the microsecond, as PostgreSQL keeps
 * it; select it with MICROSECOND_INSTANT) and id, so rows made within one millisecond are never skipped.
 */
export function encodeCursor(instant: string, id: string): string {
  return Buffer.from(`${instant}|${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { instant: string; id: string } {
  const [instant, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!instant || !id || Number.isNaN(Date.parse(instant))) {
    throw new AppError(
      'invalid_request',
      'The cursor is not valid: pass next_cursor from the previous page.',
      {
        status: 422,
        details: { fields: [{ field: 'query.cursor', message: 'invalid cursor', code: 'custom' }] },
      },
    );
  }
  return { instant, id };
}

/** SQL for a timestamptz column as the cursor's UTC text with microseconds. */
export const microsecondInstant = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
