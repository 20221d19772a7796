import type { PersonEntry } from '../../../contract/api-keys.ts';
import type { Queryable } from '../../db/pool.ts';

/** A person as spec 2.11 shows them. */
export interface PersonEntryRow {
  id: string;
  email: string;
  display_name: string;
  avatar_url: string | null;
}

export function toPersonEntry(row: PersonEntryRow): PersonEntry {
  return { user_id: row.id, email: row.email, display_name: row.display_name, avatar_url: row.avatar_url };
}

export async function findPersonEntry(db: Queryable, personId: string): Promise<PersonEntry | null> {
  const { rows } = await db.query<PersonEntryRow>(
    'SELECT id, email, display_name, avatar_url FROM persons WHERE id = $1',
    [personId],
  );
  return rows[0] ? toPersonEntry(rows[0]) : null;
}
