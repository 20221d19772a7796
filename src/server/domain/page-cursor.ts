import { AppError } from '../errors.ts';

/*
 * The cursors of every listing: opaque to clients, made here, and refused the same way (422 naming
 * `query.cursor`) when a client sends one no listing gave.
 */

/** The answer to a cursor no listing gave (or one that no longer parses). */
export function invalidCursor(): AppError {
  return new AppError(
    'invalid_request',
    'The cursor is not valid: pass next_cursor from the previous page.',
    {
      status: 422,
      details: { fields: [{ field: 'query.cursor', message: 'invalid cursor', code: 'custom' }] },
    },
  );
}

/**
 * Cursor of a newest-first listing: the last row's instant (to the microsecond, as PostgreSQL keeps it;
 * select it with `microsecondInstant`) and id, so rows made within one millisecond are never skipped.
 */
export function encodeCursor(instant: string, id: string): string {
  return Buffer.from(`${instant}|${id}`).toString('base64url');
}

/** Reads an `encodeCursor` cursor; `idForm` is what the listing's ids look like (any text by default). */
export function decodeCursor(cursor: string, idForm?: RegExp): { instant: string; id: string } {
  const [instant, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  if (!instant || !id || Number.isNaN(Date.parse(instant)) || (idForm && !idForm.test(id))) {
    throw invalidCursor();
  }
  return { instant, id };
}

/** SQL for a timestamptz column as the cursor's UTC text with microseconds. */
export const microsecondInstant = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A cursor of any other shape (a sort key and an id, say), as base64url JSON. */
export function encodeJsonCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** Reads an `encodeJsonCursor` cursor; `read` answers the cursor or null when it does not fit. */
export function decodeJsonCursor<T>(cursor: string, read: (value: unknown) => T | null): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch {
    throw invalidCursor();
  }
  const fields = read(value);
  if (fields === null) throw invalidCursor();
  return fields;
}

/**
 * The page of a listing that read one row more than it shows (`LIMIT limit + 1`): the rows to show, and
 * the next page's cursor, made from the last row shown, only when that extra row came back.
 */
export function splitPage<Row>(
  rows: Row[],
  limit: number,
  cursorOf: (last: Row) => string,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}
