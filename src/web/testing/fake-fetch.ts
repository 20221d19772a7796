import { vi } from 'vitest';

export interface FakeRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

type Handler = (request: FakeRequest) => Response | Promise<Response>;

export function json(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
}

export function apiError(status: number, code: string, message: string, headers?: Record<string, string>) {
  return json({ error: { code, message } }, { status, headers: { 'x-request-id': 'req_test', ...headers } });
}

/**
 * Replaces global `fetch` (which the console's API client calls) with handlers keyed by
 * "METHOD /path". Unknown routes answer 404 like a server without them. No network involved.
 */
export function stubFetch(routes: Record<string, Handler>) {
  const calls: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request = { method, url, headers: new Headers(init?.headers), body };
    calls.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    return handler ? handler(request) : apiError(404, 'not_found', `No route ${method} ${url.pathname}`);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (route: string) => calls.filter((call) => `${call.method} ${call.url.pathname}` === route),
  };
}
