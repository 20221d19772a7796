import type { Queryable } from '../../db/pool.ts';
import { DEMO_EMAIL, DEMO_TEAM_SLUG } from './demo-seed.ts';

/**
 * The address that signs in to the demo team `npm run seed:demo` wrote, or null before any seeding.
 * The team must still have that person as its owner: a team that merely took the slug is no demo.
 */
export async function findDemoOwnerEmail(db: Queryable): Promise<string | null> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT p.email FROM teams t
       JOIN memberships m ON m.team_id = t.id AND m.role = 'owner'
       JOIN persons p ON p.id = m.person_id
      WHERE t.slug = $1 AND p.email = $2`,
    [DEMO_TEAM_SLUG, DEMO_EMAIL],
  );
  return rows[0]?.email ?? null;
}
