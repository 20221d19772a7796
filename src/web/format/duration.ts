/** "850 ms", "4.2 s", "12 s", "3 min 05 s", "2 h 04 min": short enough for a table cell. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const totalSeconds = Math.round(seconds);
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes} min ${String(totalSeconds % 60).padStart(2, '0')} s`;
  const hours = Math.floor(minutes / 60);
  return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** Milliseconds between two instants, or null when either is missing. */
export function elapsedMs(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  return Math.max(0, Date.parse(to) - Date.parse(from));
}
