import { formatRelativeTime } from '../../../format/time.ts';

/** "just now", "5 minutes ago", or a date: when a run was started, as a phrase in a sentence. */
export function startedWhen(iso: string, now: number = Date.now()): string {
  const relative = formatRelativeTime(iso, now);
  return relative === 'now' ? 'just now' : relative;
}
