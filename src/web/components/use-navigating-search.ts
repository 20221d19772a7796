import { useLocation } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { z } from 'zod';

/**
 * The search params of the location being navigated to, parsed with the route's own schema. Controls
 * that write the URL (filters, toggles) read it back from here, not from the loaded route: a route's
 * search only changes once its loader has finished, so a select read from it would snap back to the old
 * value while the new data loads, and a quick second change would undo the first. The schema must drop
 * bad values (`.catch`), as the routes' search schemas do: while leaving, the location is another page's.
 */
export function useNavigatingSearch<T extends z.ZodType>(schema: T): z.output<T> {
  // Selected as text: equal searches compare equal, so unrelated router updates do not re-render.
  const raw = useLocation({ select: (location) => JSON.stringify(location.search) });
  return useMemo(() => schema.parse(JSON.parse(raw)) as z.output<T>, [raw, schema]);
}
