import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { OTP_MAX_ATTEMPTS, OTP_TTL_SECONDS } from '../../../contract/auth.ts';
import { type Db, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';

/** A uniformly random 6-digit code from the CSPRNG. */
export function generateCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

function hashCode(hashingKey: Buffer, email: string, code: string): Buffer {
  return createHmac('sha256', hashingKey).update(`${email}\n${code}`).digest();
}

/** Stores a new code for the email (hashed) and closes any older open one: only the newest code works. */
export async function issueCode(db: Db, hashingKey: Buffer, email: string): Promise<string> {
  const code = generateCode();
  await transaction(db, async (tx) => {
    await tx.query(
      `UPDATE otp_codes SET closed_at = now(), closed_reason = 'superseded' WHERE email = $1 AND closed_at IS NULL`,
      [email],
    );
    await tx.query(
      `INSERT INTO otp_codes (email, code_hash, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [email, hashCode(hashingKey, email, code), OTP_TTL_SECONDS],
    );
  });
  return code;
}

function refuse(reason: string, message: string, extra: Record<string, unknown> = {}): AppError {
  return new AppError('unauthorized', message, { details: { reason, ...extra } });
}

type CodeRow = {
  id: string;
  code_hash: Buffer;
  attempts: number;
  expired: boolean;
  closed_reason: string | null;
};

/**
 * Checks a code against the newest code issued to the email. Succeeds once; each wrong try counts,
 * and the fifth burns the code. Rows are locked so concurrent tries are counted one by one.
 *
 * An email with no code gets a stand-in: a code row whose hash no code can match, so the try is
 * answered and counted exactly as a wrong guess at a real code would be. Answering "no code was sent"
 * instead would tell a stranger whether someone is signing in with that address right now.
 */
export async function consumeCode(db: Db, hashingKey: Buffer, email: string, code: string): Promise<void> {
  const failure = await transaction(db, async (tx) => {
    // One try at a time per email, so concurrent first tries share one stand-in.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 7226102))', [email]);
    const { rows } = await tx.query<CodeRow>(
      `SELECT id, code_hash, attempts, expires_at <= now() AS expired, closed_reason
         FROM otp_codes WHERE email = $1 AND closed_reason IS DISTINCT FROM 'superseded'
        ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
      [email],
    );
    const row =
      rows[0] ??
      (
        await tx.query<CodeRow>(
          `INSERT INTO otp_codes (email, code_hash, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
           RETURNING id, code_hash, attempts, false AS expired, closed_reason`,
          [email, randomBytes(32), OTP_TTL_SECONDS],
        )
      ).rows[0]!;
    if (row.closed_reason === 'used')
      return refuse('used', 'This code was already used. Request a new code.');
    if (row.closed_reason === 'too_many_attempts') {
      return refuse(
        'too_many_attempts',
        'Too many wrong tries: this code no longer works. Request a new code.',
      );
    }
    if (row.expired) return refuse('expired', 'This code has expired. Request a new code.');
    if (timingSafeEqual(row.code_hash, hashCode(hashingKey, email, code))) {
      await tx.query(`UPDATE otp_codes SET closed_at = now(), closed_reason = 'used' WHERE id = $1`, [
        row.id,
      ]);
      return null;
    }
    const attempts = row.attempts + 1;
    const burned = attempts >= OTP_MAX_ATTEMPTS;
    await tx.query(
      `UPDATE otp_codes SET attempts = $2,
              closed_at = CASE WHEN $3::boolean THEN now() END,
              closed_reason = CASE WHEN $3::boolean THEN 'too_many_attempts' END
        WHERE id = $1`,
      [row.id, attempts, burned],
    );
    if (burned)
      return refuse(
        'too_many_attempts',
        'Too many wrong tries: this code no longer works. Request a new code.',
      );
    const left = OTP_MAX_ATTEMPTS - attempts;
    return refuse('incorrect', `That code is not right. ${left} ${left === 1 ? 'try' : 'tries'} left.`, {
      attempts_left: left,
    });
  });
  if (failure) throw failure;
}

/** Deletes codes that can no longer be used, a day after they closed or expired. */
export async function sweepCodes(db: Db): Promise<number> {
  const result = await db.query(
    `DELETE FROM otp_codes WHERE coalesce(closed_at, expires_at) < now() - interval '1 day'`,
  );
  return result.rowCount ?? 0;
}
