import { useLocation } from '@tanstack/react-router';
import { useMemo } from 'react';

/**
 * The search params of the location being navigated to, read with the route's own `validateSearch`.
 * Controls that write the URL (filters, toggles) read it back from here, not from the loaded route: a
 * route's search only changes once its loader has finished, so a select read from it would snap back to
 * the old value while the new data loads, and a quick second change would undo the first. The reader
 * must drop values that do not fit (as search-params/fields.ts does): while leaving, the location is
 * another page's.
 */
export function useNavigatingSearch<T>(read: (raw: Record<string, unknown>) => T): T {
  // Selected as text: equal searches compare equal, so unrelated router updates do not re-render.
  const raw = useLocation({ select: (location) => JSON.stringify(location.search) });
  return useMemo(() => read(JSON.parse(raw) as Record<string, unknown>), [raw, read]);
}
