import type { Queryable } from '../../db/pool.ts';
import { open, seal } from '../identity/sealed-box.ts';
import { generateWebhookSecret } from './signature.ts';

/** A team's webhook signing secret (`whsec_<base64>`) and when it was minted. */
export interface TeamWebhookSecret {
  secret: string;
  createdAt: Date;
}

interface SecretRow {
  secret_sealed: Buffer;
  created_at: Date;
}

function unsealed(key: Buffer, row: SecretRow): TeamWebhookSecret {
  return { secret: open(key, row.secret_sealed), createdAt: row.created_at };
}

/** The team's secret, made on first use (a first read, or the first webhook sent). Stored sealed. */
export async function getOrCreateWebhookSecret(
  db: Queryable,
  key: Buffer,
  teamId: string,
): Promise<TeamWebhookSecret> {
  const existing = await db.query<SecretRow>(
    'SELECT secret_sealed, created_at FROM webhook_secrets WHERE team_id = $1',
    [teamId],
  );
  if (existing.rows[0]) return unsealed(key, existing.rows[0]);
  const created = await db.query<SecretRow>(
    `INSERT INTO webhook_secrets (team_id, secret_sealed) VALUES ($1, $2)
     ON CONFLICT (team_id) DO NOTHING RETURNING secret_sealed, created_at`,
    [teamId, seal(key, generateWebhookSecret())],
  );
  if (created.rows[0]) return unsealed(key, created.rows[0]);
  // Another request made it first: answer that one, so both callers see the same secret.
  const raced = await db.query<SecretRow>(
    'SELECT secret_sealed, created_at FROM webhook_secrets WHERE team_id = $1',
    [teamId],
  );
  if (!raced.rows[0]) throw new Error('webhook secret vanished while being created');
  return unsealed(key, raced.rows[0]);
}

/** Replaces the team's secret; webhooks sent from now on are signed with the new one. */
export async function rotateTeamWebhookSecret(
  db: Queryable,
  key: Buffer,
  teamId: string,
): Promise<TeamWebhookSecret> {
  const { rows } = await db.query<SecretRow>(
    `INSERT INTO webhook_secrets (team_id, secret_sealed) VALUES ($1, $2)
     ON CONFLICT (team_id) DO UPDATE SET secret_sealed = EXCLUDED.secret_sealed, created_at = now()
     RETURNING secret_sealed, created_at`,
    [teamId, seal(key, generateWebhookSecret())],
  );
  return unsealed(key, rows[0]!);
}
