import type { Hono } from 'hono';
import { type EndpointDef, fillPath } from '../../../contract/endpoint.ts';
import type { AppEnv } from '../env.ts';

/** An answer of one of our routes, as the MCP tools see it. */
export type RouteAnswer =
  | { ok: true; status: number; body: unknown }
  | { ok: false; status: number; code: string; message: string; details?: unknown };

export interface RouteCall {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | string[] | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Dispatch = (endpoint: EndpointDef, call?: RouteCall) => Promise<RouteAnswer>;

function queryString(query: RouteCall['query']): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined) continue;
    search.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls the contract's routes in-process, as the MCP caller: the same authentication, validation, limits
 * and handlers as over HTTP, so a tool can never do more (or other) than the API allows. The calls carry
 * `mcpCall`, a binding no HTTP client can set, so the runs they start are recorded with source `mcp`, and
 * the agent's address (`clientAddress`), so a key's address allow-list holds on each call.
 */
export function routeDispatcher(
  app: Hono<AppEnv>,
  origin: string,
  authorization: string,
  team: string | undefined,
  address: string,
): Dispatch {
  return async (endpoint, call = {}) => {
    const url = `${origin}${fillPath(endpoint.path, call.params)}${queryString(call.query)}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization,
      ...(team ? { 'x-team-id': team } : {}),
      ...call.headers,
    };
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    // Only `mcpCall`: Node's request of the MCP exchange is not this call's (its body is read already).
    const response = await app.request(
      url,
      { method: endpoint.method, headers, body },
      {
        mcpCall: true,
        clientAddress: address,
      },
    );
    const text = await response.text();
    const parsed: unknown = text ? JSON.parse(text) : null;
    if (response.ok) return { ok: true, status: response.status, body: parsed };
    const error = (parsed as { error?: { code: string; message: string; details?: unknown } } | null)?.error;
    return {
      ok: false,
      status: response.status,
      code: error?.code ?? `http_${response.status}`,
      message: error?.message ?? `HTTP ${response.status}`,
      details: error?.details,
    };
  };
}
