import type { Context } from 'hono';
import { type AuditOrigin, actorOf } from '../domain/audit/record-audit-event.ts';
import type { AuthContext } from '../domain/identity/auth-context.ts';
import { clientAddress } from './client-address.ts';
import { requestHeader } from './request-header.ts';

/** The request's address (as every limit and log sees it: TRUST_PROXY honoured) and user agent. */
export function auditRequestInfo(c: Context, trustProxy: boolean) {
  return { address: clientAddress(c, trustProxy), userAgent: requestHeader(c, 'user-agent') ?? null };
}

/** Who made an authenticated request, and from where: what an audited action is handed. */
export function auditOrigin(c: Context, auth: AuthContext, trustProxy: boolean): AuditOrigin {
  return { actor: actorOf(auth), request: auditRequestInfo(c, trustProxy) };
}
