import { createHash } from 'node:crypto';
import type { Queryable } from '../db/pool.ts';
import { AppError } from '../errors.ts';

export interface RateLimitRule {
  /** What is limited, for the message: "sign-in codes for this email". */
  label: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** Bucket names carry hashed subjects (emails, addresses), never the raw values. */
export function bucketName(kind: string, subject: string): string {
  return `${kind}:${createHash('sha256').update(subject).digest('base64url').slice(0, 22)}`;
}

/**
 * Fixed-window counter kept in PostgreSQL, so every process of a scaled deployment shares it.
 * Counts this hit and throws 429 with Retry-After and RateLimit headers when the window is full.
 */
export async function hit(
  db: Queryable,
  bucket: string,
  rule: RateLimitRule,
  now = Date.now(),
): Promise<RateLimitState> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now / windowMs) * windowMs);
  const { rows } = await db.query<{ hits: number }>(
    `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES ($1, $2, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = rate_limit_windows.hits + 1
     RETURNING hits`,
    [bucket, windowStart],
  );
  const hits = rows[0]!.hits;
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now) / 1000));
  const state = { limit: rule.limit, remaining: Math.max(0, rule.limit - hits), resetSeconds };
  if (hits > rule.limit) {
    throw new AppError('rate_limited', `Too many ${rule.label}: try again in ${resetSeconds} s.`, {
      details: { retry_after_seconds: resetSeconds, limit: rule.limit, window_seconds: rule.windowSeconds },
      headers: rateLimitHeaders(state),
    });
  }
  return state;
}

/** `Retry-After` plus the IETF RateLimit fields. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'retry-after': String(state.resetSeconds),
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  };
}

/** Drops windows that ended more than a day ago (run by the maintenance sweep). */
export async function sweepRateLimits(db: Queryable): Promise<number> {
  const result = await db.query(
    `DELETE FROM rate_limit_windows WHERE window_start < now() - interval '1 day'`,
  );
  return result.rowCount ?? 0;
}
