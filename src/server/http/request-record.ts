import { randomBytes } from 'node:crypto';
import type { Services } from '../services.ts';
import { type AccessEntry, AccessLog } from './access-log.ts';

/** On every answer of the server, whichever path made it. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

// Unique per process (random prefix) and per request (counter): no entropy needed per request.
const REQUEST_ID_PREFIX = `req_${randomBytes(5).toString('hex')}`;
let requestCounter = 0;

/** The caller's `X-Request-Id` when it is a plain token, else one of ours. */
export function requestIdFor(inbound: string | undefined): string {
  if (inbound && REQUEST_ID.test(inbound)) return inbound;
  return `${REQUEST_ID_PREFIX}${(requestCounter++).toString(36).padStart(6, '0')}`;
}

/** Logs and counts one answered request: the access log, and the request metrics by route pattern. */
export type RequestRecorder = (entry: AccessEntry) => void;

export function createRequestRecorder(s: Services): RequestRecorder {
  const accessLog = new AccessLog(s.log);
  return (entry) => {
    accessLog.record(entry);
    s.metrics.requests.inc({ method: entry.method, route: entry.route, status: entry.status });
    s.metrics.requestSeconds.observe({ method: entry.method, route: entry.route }, entry.ms / 1000);
  };
}
