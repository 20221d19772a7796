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

/**
 * The secrets every webhook is signed with now: the team's secret, and during a rotation's overlap also the
 * one it replaced, so receivers still verifying with the old secret keep accepting deliveries until they
 * switch. The overlap's end is compared with the database clock, the same clock that set it.
 */
export async function webhookSigningSecrets(db: Queryable, key: Buffer, teamId: string): Promise<string[]> {
  const current = await getOrCreateWebhookSecret(db, key, teamId);
  const { rows } = await db.query<{ previous_secret_sealed: Buffer }>(
    `SELECT previous_secret_sealed FROM webhook_secrets
      WHERE team_id = $1 AND previous_secret_sealed IS NOT NULL AND previous_expires_at > now()`,
    [teamId],
  );
  return rows[0] ? [current.secret, open(key, rows[0].previous_secret_sealed)] : [current.secret];
}

/** A rotation's answer: the new secret, and until when the one it replaced still signs (null: it no longer does). */
export interface RotatedWebhookSecret extends TeamWebhookSecret {
  previousExpiresAt: Date | null;
}

/**
 * Replaces the team's secret. For `overlapSeconds` (0: none) webhooks are signed with both the new secret
 * and the one it replaced; after that, with the new one only. Rotating again during an overlap drops the
 * oldest secret: only the one being replaced carries over.
 */
export async function rotateTeamWebhookSecret(
  db: Queryable,
  key: Buffer,
  teamId: string,
  overlapSeconds = 0,
): Promise<RotatedWebhookSecret> {
  const { rows } = await db.query<SecretRow & { previous_expires_at: Date | null }>(
    `INSERT INTO webhook_secrets (team_id, secret_sealed) VALUES ($1, $2)
     ON CONFLICT (team_id) DO UPDATE SET
       previous_secret_sealed = CASE WHEN $3::int > 0 THEN webhook_secrets.secret_sealed END,
       previous_expires_at = CASE WHEN $3::int > 0 THEN now() + make_interval(secs => $3::int) END,
       secret_sealed = EXCLUDED.secret_sealed,
       created_at = now()
     RETURNING secret_sealed, created_at, previous_expires_at`,
    [teamId, seal(key, generateWebhookSecret()), overlapSeconds],
  );
  const row = rows[0]!;
  return { ...unsealed(key, row), previousExpiresAt: row.previous_expires_at };
}
