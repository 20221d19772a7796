/**
 * Idempotency-Keys of the playground's submissions. One key per submit attempt: a repeat of the same
 * attempt (a retry after a network error or a 5xx, or a second click of a double click) sends the
 * same key, so the server answers the job it already made instead of charging twice. A new attempt
 * (other inputs, or the same inputs run again on purpose later) gets a new key.
 */
export interface Attempt {
  key: string;
  fingerprint: string;
  phase: 'pending' | 'failed' | 'succeeded';
  /** When the attempt last changed phase (ms). */
  at: number;
}

/** A second click this soon after a success is the other half of a double click. */
export const DOUBLE_SUBMIT_WINDOW_MS = 2000;

/** Canonical JSON: key order does not make two equal requests differ. */
export function fingerprintOf(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(fingerprintOf).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${fingerprintOf(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether a submission with this fingerprint continues `previous` (same key) or starts a new attempt. */
export function continues(previous: Attempt | null, fingerprint: string, now: number): previous is Attempt {
  if (!previous || previous.fingerprint !== fingerprint) return false;
  if (previous.phase === 'succeeded') return now - previous.at < DOUBLE_SUBMIT_WINDOW_MS;
  return true;
}

/** The attempt a submission belongs to: the previous one continued, or a new one with a fresh key. */
export function attemptFor(
  previous: Attempt | null,
  fingerprint: string,
  now: number,
  newKey: () => string = () => crypto.randomUUID(),
): Attempt {
  if (continues(previous, fingerprint, now)) return { ...previous, phase: 'pending', at: now };
  return { key: newKey(), fingerprint, phase: 'pending', at: now };
}
