import type { EndpointDef, EndpointInput, EndpointOutput } from '../contract/endpoint.ts';
import { fillPath } from '../contract/endpoint.ts';
import { type Endpoints, endpoints } from '../contract/endpoints.ts';
import { ApiError, apiErrorFrom } from './api-error.ts';

export interface ClientOptions {
  /** `{base_url}`: the server root followed by `/v2`, for example `http://localhost:8787/v2`. */
  baseUrl: string;
  /** `{app_url}` for the sign-in endpoints; defaults to `baseUrl` without its `/v2`. */
  appUrl?: string;
  /** API key or session JWT; a function is read on every call (tokens change at sign-in). */
  token?: string | null | (() => string | null | undefined);
  fetch?: typeof fetch;
  /**
   * Headers sent with every call, read on every call (for example `x-team-id` to act for another of the
   * person's teams, which the person may change at any time); a call's own headers win over these.
   */
  headers?: () => Record<string, string>;
  /** Called with every ApiError before it is thrown (the console uses it to catch 401s). */
  onError?: (error: ApiError) => void;
}

type Caller<E extends EndpointDef> = keyof EndpointInput<E> extends never
  ? () => Promise<EndpointOutput<E>>
  : Partial<EndpointInput<E>> extends EndpointInput<E>
    ? (input?: EndpointInput<E>) => Promise<EndpointOutput<E>>
    : (input: EndpointInput<E>) => Promise<EndpointOutput<E>>;

export type Client = { [K in keyof Endpoints]: Caller<Endpoints[K]> } & {
  /** The resolved `{base_url}`. */
  readonly baseUrl: string;
  readonly appUrl: string;
};

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** Builds the query string, dropping undefined values and joining arrays with commas (as the interface does). */
function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    search.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The typed SDK of the v2 interface: one function per endpoint of the contract. */
export function createClient(options: ClientOptions): Client {
  const baseUrl = trimSlash(options.baseUrl);
  const root = baseUrl.replace(/\/v2$/, '');
  const appUrl = trimSlash(options.appUrl ?? root);
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));

  async function call(
    endpoint: EndpointDef,
    input: EndpointInput<EndpointDef> | undefined,
  ): Promise<unknown> {
    const prefix = endpoint.host === 'app' ? appUrl : root;
    const url = `${prefix}${fillPath(endpoint.path, input?.params as Record<string, string> | undefined)}${queryString(input?.query as Record<string, unknown> | undefined)}`;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...options.headers?.(),
      ...input?.headers,
    };
    const token = typeof options.token === 'function' ? options.token() : options.token;
    if (token && endpoint.auth !== 'none') headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (input?.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
    let response: Response;
    try {
      response = await doFetch(url, { method: endpoint.method, headers, body });
    } catch (cause) {
      const error = new ApiError({
        status: 0,
        code: 'network_error',
        message: `Could not reach ${prefix}: ${cause instanceof Error ? cause.message : String(cause)}`,
      });
      options.onError?.(error);
      throw error;
    }
    if (!response.ok) {
      const error = await apiErrorFrom(response);
      options.onError?.(error);
      throw error;
    }
    if (response.status === 204) return undefined;
    const type = response.headers.get('content-type') ?? '';
    return type.includes('json') ? response.json() : response.text();
  }

  const client: Record<string, unknown> = { baseUrl, appUrl };
  for (const [name, endpoint] of Object.entries(endpoints)) {
    client[name] = (input?: EndpointInput<EndpointDef>) => call(endpoint, input);
  }
  return client as Client;
}
