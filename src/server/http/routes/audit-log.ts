import type { Context } from 'hono';
import { listAuditLog } from '../../../contract/audit-log.ts';
import { auditLogCsv } from '../../../contract/audit-log-csv.ts';
import { auditLogPage } from '../../domain/audit/audit-log-page.ts';
import { isManagerRole } from '../../domain/identity/team.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';
import { requestHeader } from '../request-header.ts';
import { respond } from '../respond.ts';

/** CSV when `format=csv`, or when `Accept` asks for text/csv and `format` does not say json (as analytics). */
function wantsCsv(c: Context, format: 'json' | 'csv' | undefined): boolean {
  if (format) return format === 'csv';
  return /\btext\/csv\b/i.test(requestHeader(c, 'accept') ?? '');
}

/** The team's audit log: owners and managers only (with a session or their own key). */
export function auditLogRoutes(s: Services) {
  return [
    defineRoute(listAuditLog, async ({ auth, query, c }) => {
      if (!isManagerRole(auth.role)) {
        throw new AppError('forbidden', "Only the team's owners and managers read its audit log.");
      }
      const page = await auditLogPage(s.db, auth.teamId, query);
      if (!wantsCsv(c, query.format)) return page;
      const headers: Record<string, string> = {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
        'cache-control': 'no-store',
      };
      if (page.next_cursor) headers['x-next-cursor'] = page.next_cursor;
      return respond(c as never, 200, auditLogCsv(page.data), headers);
    }),
  ];
}
