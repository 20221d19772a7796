import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { Db } from '../../db/pool.ts';

/** Test helpers: a bare team and job rows to hang files and lineage on, and a plain PNG. */

export async function insertTeam(db: Db): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO teams (name, slug) VALUES ('Test team', $1) RETURNING id`,
    [`team-${randomBytes(5).toString('hex')}`],
  );
  return rows[0]!.id;
}

export async function insertJob(db: Db, teamId: string): Promise<string> {
  const id = `job_${randomBytes(8).toString('hex')}`;
  await db.query(
    `INSERT INTO jobs (id, team_id, source, tool, model, status, input, estimated_duration_ms,
                       estimated_cost_cents, pricing_id, billing, provider, provider_model)
     VALUES ($1, $2, 'api', 'image', 'local-edit', 'running', '{}', 1000, 1, 'local:edit:image', 'per_image',
             'local', 'local:local-edit')`,
    [id, teamId],
  );
  return id;
}

export function solidPng(width: number, height: number, colour = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}
