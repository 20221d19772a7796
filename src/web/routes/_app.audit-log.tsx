import { createFileRoute } from '@tanstack/react-router';
import { LOCAL_DATE } from '../format/date-time.ts';
import { auditLogQueryOptions } from '../queries/audit-log.ts';
import { meQueryOptions } from '../queries/me.ts';
import { searchParams, text } from '../search-params/fields.ts';
import { AuditLogPage } from './-components/audit-log/audit-log-page.tsx';

/** Every filter lives in the URL; a value that does not fit is dropped, not an error page. */
const AuditLogSearch = searchParams({
  actor: text({ max: 64, pattern: /^([0-9a-f-]{36}|key_[A-Za-z0-9_-]+)$/ }),
  action: text({ max: 64, pattern: /^[a-z_]+\.([a-z_]+)?$/ }),
  target: text({ trim: true, min: 1, max: 200 }),
  from: text({ pattern: LOCAL_DATE }),
  to: text({ pattern: LOCAL_DATE }),
});

/** The team's audit log (owners and managers): security and money events, newest first. */
export const Route = createFileRoute('/_app/audit-log')({
  validateSearch: AuditLogSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchInfiniteQuery(auditLogQueryOptions(deps));
    return queryClient.ensureQueryData(meQueryOptions());
  },
  component: AuditLogRoute,
});

function AuditLogRoute() {
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  return <AuditLogPage filters={filters} onFilters={(next) => void navigate({ search: next })} />;
}
