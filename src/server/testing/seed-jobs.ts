import type { Queryable } from '../db/pool.ts';

/** The folder ids `seedJobs` makes in a team: 0 holds a fifth of the jobs, 6 one in 10,000, 1 to 5 none. */
export const seededFolderId = (teamId: string, n: number) => `${teamId.slice(0, 33)}f0${n}`;

/**
 * `count` jobs in an existing team, one every 30 s up to now, written in one statement (100,000 take
 * seconds): 90% completed, 5% failed, 5% cancelled, the newest 3 running; tools image 60%, video 20%,
 * speech 10%, music 10%, with `render` once in 10,000; 30 models with `rare-model` once in 10,000; half
 * made with API keys (`key_few` once in 10,000). `every` spreads the rare values over a small team.
 */
export async function seedJobs(db: Queryable, teamId: string, count: number, every = 10_000): Promise<void> {
  await db.query(
    `INSERT INTO workspaces (id, team_id, name, slug)
     SELECT (left($1::text, 33) || 'f0' || f)::uuid, $1::uuid, 'Folder ' || f, 'seeded-folder-' || f
       FROM generate_series(0, 6) f`,
    [teamId],
  );
  await db.query(
    `INSERT INTO jobs (id, team_id, api_key_id, source, tool, model, status, input, output,
       estimated_duration_ms, estimated_cost_cents, actual_cost_cents, pricing_id, billing, provider,
       provider_model, folder_id, created_at, updated_at, completed_at)
     SELECT 'job_seed_' || left(md5($1::text), 6) || '_' || lpad(i::text, 8, '0'), $1::uuid,
       CASE WHEN i % $3 = 7 THEN 'key_few' WHEN i % 2 = 0 THEN NULL ELSE 'key_seed' || (i % 3) END,
       CASE WHEN i % 2 = 0 THEN 'app' ELSE 'api' END,
       CASE WHEN i % $3 = 3 THEN 'render' WHEN i % 10 < 6 THEN 'image' WHEN i % 10 < 8 THEN 'video'
            WHEN i % 10 < 9 THEN 'speech' ELSE 'music' END,
       CASE WHEN i % $3 = 5 THEN 'rare-model' ELSE 'model-' || (i % 30) END,
       CASE WHEN i > $2 - 3 THEN 'running' WHEN i % 100 < 90 THEN 'completed' WHEN i % 100 < 95 THEN 'failed'
            ELSE 'cancelled' END,
       '{"prompt":"a seeded job"}', '{"outputs":[]}', 1000, 10, 10, 'price_seed', 'per_image', 'local',
       'sketch',
       CASE WHEN i % $3 = 9 THEN (left($1::text, 33) || 'f06')::uuid
            WHEN i % 5 = 0 THEN (left($1::text, 33) || 'f00')::uuid END,
       now() - ($2 - i) * interval '30 seconds', now() - ($2 - i) * interval '30 seconds' + interval '10 seconds',
       now() - ($2 - i) * interval '30 seconds' + interval '10 seconds'
     FROM generate_series(1, $2::int) i`,
    [teamId, count, every],
  );
}
