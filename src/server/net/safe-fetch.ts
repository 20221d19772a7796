import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { Readable, Transform } from 'node:stream';
import { AppError } from '../errors.ts';
import {
  assertAddressAllowed,
  assertUrlAllowed,
  describeUrl,
  parseFetchUrl,
  type UrlPolicy,
} from './url-policy.ts';

/**
 * The server's only way to fetch a URL that a user gave (input files, webhooks). Every hop is checked
 * against the URL policy; host names are resolved here, every address is checked, and the connection goes to
 * the checked address through a custom `lookup`, so DNS cannot answer differently between check and connect.
 * Redirects are followed by hand, each one checked again. Proxies from the environment are never used.
 */

export const DEFAULT_MAX_BYTES = 209_715_200; // 200 MB, the spec's file size limit (section 8)
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_REDIRECTS = 5;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address, in the resolver's order. */
export const systemResolve: Resolve = async (hostname) => {
  const addresses = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Our own stored files: URLs under `baseUrl` are read with `read`, never over the network. */
export interface OwnFiles {
  baseUrl: string;
  read(url: URL): Promise<{ body: Buffer; contentType: string } | null>;
}

export interface SafeFetchOptions {
  policy: UrlPolicy;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Largest body accepted, in bytes (default 200 MB). */
  maxBytes?: number;
  /** Redirects followed (default 5); one more is an error. */
  maxRedirects?: number;
  /** Deadline for the whole exchange, redirects and body included (default 30 s). */
  timeoutMs?: number;
  /** Deadline for name resolution plus TCP connect of each hop (default 10 s). */
  connectTimeoutMs?: number;
  signal?: AbortSignal;
  ownFiles?: OwnFiles;
  /** Name resolution (default: the system resolver). */
  resolve?: Resolve;
  /**
   * Decides whether an address may be connected to; throws to refuse (default: `assertAddressAllowed` with
   * `policy`). Called for IP literals and for every resolved address.
   */
  checkAddress?: (ip: string, url: URL) => void;
  /** A final answer outside 2xx is an AppError (default). Set false to get it back, for example for webhooks. */
  rejectHttpErrors?: boolean;
}

export interface SafeFetchResult<TBody> {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  contentType: string | null;
  body: TBody;
  /** The URL that answered, after redirects. */
  finalUrl: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function readError(url: URL, why: string, details: Record<string, unknown> = {}): AppError {
  return new AppError('invalid_request', `could not read ${describeUrl(url)}: ${why}`, {
    status: 422,
    details: { url: describeUrl(url), ...details },
  });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

function tooLarge(url: URL, maxBytes: number): AppError {
  return readError(url, `file too large (more than ${formatBytes(maxBytes)})`, { max_bytes: maxBytes });
}

function networkError(url: URL, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const host = url.hostname;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NODATA':
    case 'EAI_NONAME':
      return readError(url, `host ${host} not found`);
    case 'ECONNREFUSED':
      return readError(url, 'connection refused');
    case 'ECONNRESET':
    case 'EPIPE':
      return readError(url, 'connection reset');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return readError(url, 'host unreachable');
    default:
      if (code && /CERT|SSL|TLS|SELF_SIGNED/.test(code)) return readError(url, `TLS error (${code})`);
      return readError(url, code ?? (err instanceof Error ? err.message : 'network error'));
  }
}

function flattenHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function ownFileMatch(url: URL, ownFiles: OwnFiles | undefined): boolean {
  if (!ownFiles) return false;
  const base = new URL(ownFiles.baseUrl);
  if (url.origin !== base.origin) return false;
  const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  return url.pathname === base.pathname || url.pathname.startsWith(prefix);
}

/** Rejects as soon as `signal` aborts, with its reason. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface Hop {
  method: string;
  headers: Record<string, string>;
  body: Buffer | string | undefined;
}

interface Context {
  resolve: Resolve;
  checkAddress: (ip: string, url: URL) => void;
  connectTimeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
}

/** One request to one checked URL; resolves with the response head. */
function requestOnce(url: URL, hop: Hop, ctx: Context): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    let failure: unknown;
    const fail = (err: unknown) => {
      failure ??= err;
      req.destroy(err instanceof Error ? err : new Error(String(err)));
    };

    const lookup: LookupFunction = (hostname, options, callback) => {
      ctx
        .resolve(hostname)
        .then((addresses) => {
          if (addresses.length === 0) throw Object.assign(new Error('no addresses'), { code: 'ENOTFOUND' });
          // Every address is checked, not only the one connected to: a name that answers with any
          // non-public address is refused outright.
          for (const a of addresses) ctx.checkAddress(a.address, url);
          const family = options.family === 4 || options.family === 6 ? options.family : undefined;
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          const first = usable[0];
          if (!first)
            throw Object.assign(new Error('no address of the requested family'), { code: 'ENOTFOUND' });
          if (options.all) callback(null, usable);
          else callback(null, first.address, first.family);
        })
        .catch((err: unknown) => {
          failure ??= err;
          callback(err as NodeJS.ErrnoException, '');
        });
    };

    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request({
      protocol: url.protocol,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: hop.method,
      headers: hop.headers,
      auth:
        url.username || url.password
          ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`
          : undefined,
      agent: false,
      lookup,
    });

    const connectTimer = setTimeout(
      () => fail(readError(url, `no connection within ${ctx.connectTimeoutMs / 1000} s`)),
      ctx.connectTimeoutMs,
    );
    const onAbort = () => fail(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => {
      clearTimeout(connectTimer);
      ctx.signal.removeEventListener('abort', onAbort);
    };

    req.on('socket', (socket: Socket) => {
      const onConnect = () => {
        clearTimeout(connectTimer);
        // Belt and braces: the peer must be an address the policy accepts, whatever path led here.
        try {
          if (socket.remoteAddress) ctx.checkAddress(socket.remoteAddress, url);
        } catch (err) {
          fail(err);
        }
      };
      if (socket.connecting) socket.once('connect', onConnect);
      else onConnect();
    });
    req.on('response', (res) => {
      settle();
      if (failure !== undefined) {
        res.destroy();
        reject(networkError(url, failure));
        return;
      }
      resolve(res);
    });
    const onFailure = (err: unknown) => {
      settle();
      // The caller's own abort reason goes back untouched; everything else becomes a 422 naming the URL.
      reject(
        ctx.signal.aborted && failure === ctx.signal.reason ? failure : networkError(url, failure ?? err),
      );
    };
    req.on('error', onFailure);
    req.on('close', () => onFailure(new Error('connection closed before an answer')));
    if (ctx.signal.aborted) onAbort();
    req.end(hop.body);
  });
}

/** Wraps a response body: counts bytes against the limit and ends with the deadline. */
function limitedBody(
  source: Readable,
  url: URL,
  maxBytes: number,
  signal: AbortSignal,
  onDone: () => void,
): Readable {
  let received = 0;
  const out = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > maxBytes) callback(tooLarge(url, maxBytes));
      else callback(null, chunk);
    },
  });
  const onAbort = () => out.destroy(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  source.on('error', (err) => out.destroy(networkError(url, err)));
  source.on('aborted', () => out.destroy(readError(url, 'connection closed before the end of the body')));
  out.on('close', () => {
    signal.removeEventListener('abort', onAbort);
    source.destroy();
    onDone();
  });
  source.pipe(out);
  return out;
}

/**
 * Fetches `input` under the policy and returns the answer with its body as a stream. The stream errors with
 * an AppError when the body passes `maxBytes` or the deadline passes before its end.
 */
export async function safeFetchStream(
  input: string | URL,
  options: SafeFetchOptions,
): Promise<SafeFetchResult<Readable>> {
  const {
    policy,
    maxBytes = DEFAULT_MAX_BYTES,
    maxRedirects = DEFAULT_MAX_REDIRECTS,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
    rejectHttpErrors = true,
  } = options;
  const checkAddress =
    options.checkAddress ?? ((ip: string, url: URL) => assertAddressAllowed(ip, policy, url));
  const start = parseFetchUrl(input);

  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(readError(start, `no complete answer within ${timeoutMs / 1000} s`)),
    timeoutMs,
  );
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  const done = () => clearTimeout(timer);
  const ctx: Context = {
    resolve: options.resolve ?? systemResolve,
    checkAddress,
    connectTimeoutMs,
    maxBytes,
    signal,
  };

  let url = start;
  let hop: Hop = {
    method: (options.method ?? 'GET').toUpperCase(),
    headers: {
      accept: '*/*',
      'accept-encoding': 'identity',
      'user-agent': 'media-console-fetcher/1',
      ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    },
    body: options.body,
  };
  try {
    for (let redirects = 0; ; redirects++) {
      try {
        if (ownFileMatch(url, options.ownFiles)) {
          const file = await raceAbort(options.ownFiles!.read(url), signal);
          if (file === null) throw readError(url, 'no such file', { status: 404 });
          if (file.body.length > maxBytes) throw tooLarge(url, maxBytes);
          done();
          return {
            status: 200,
            headers: { 'content-type': file.contentType, 'content-length': String(file.body.length) },
            contentType: file.contentType,
            body: Readable.from([file.body]),
            finalUrl: url.href,
          };
        }
        url = assertUrlAllowed(url, policy, checkAddress);
        const res = await requestOnce(url, hop, ctx);
        const status = res.statusCode ?? 0;
        const location = res.headers.location;

        if (REDIRECTS.has(status) && location) {
          res.destroy();
          if (redirects >= maxRedirects) throw readError(url, `more than ${maxRedirects} redirects`);
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw readError(url, 'the redirect location is not a valid URL');
          }
          hop = nextHop(hop, status, url, next);
          url = next;
          continue;
        }

        if (rejectHttpErrors && (status < 200 || status > 299)) {
          res.destroy();
          throw readError(url, `HTTP ${status}`, { status });
        }
        const length = Number(res.headers['content-length']);
        if (Number.isFinite(length) && length > maxBytes) {
          res.destroy();
          throw tooLarge(url, maxBytes);
        }
        const contentType = res.headers['content-type'] ?? null;
        return {
          status,
          headers: flattenHeaders(res.headers),
          contentType,
          body: limitedBody(res, url, maxBytes, signal, done),
          finalUrl: url.href,
        };
      } catch (err) {
        throw redirects > 0 ? viaRedirect(err, start) : err;
      }
    }
  } catch (err) {
    done();
    throw err;
  }
}

/** Method, body and headers for the next hop, as browsers do: 303 (and 301/302 after POST) become GET. */
function nextHop(hop: Hop, status: number, from: URL, to: URL): Hop {
  const toGet =
    status === 303 ? hop.method !== 'HEAD' : (status === 301 || status === 302) && hop.method === 'POST';
  const headers = { ...hop.headers };
  if (toGet) {
    delete headers['content-type'];
    delete headers['content-length'];
  }
  if (from.origin !== to.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return { method: toGet ? 'GET' : hop.method, headers, body: toGet ? undefined : hop.body };
}

function viaRedirect(err: unknown, start: URL): unknown {
  if (!(err instanceof AppError)) return err;
  return new AppError(err.code, `${err.message} (reached by a redirect from ${describeUrl(start)})`, {
    status: err.status,
    details: err.details,
    headers: err.headers,
  });
}

/** Fetches `input` under the policy and reads the whole body (at most `maxBytes`). */
export async function safeFetch(
  input: string | URL,
  options: SafeFetchOptions,
): Promise<SafeFetchResult<Buffer>> {
  const result = await safeFetchStream(input, options);
  const chunks: Buffer[] = [];
  for await (const chunk of result.body) chunks.push(chunk as Buffer);
  return { ...result, body: Buffer.concat(chunks) };
}
