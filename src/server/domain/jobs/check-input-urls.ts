import { isIP } from 'node:net';
import { PIPELINE_REFERENCE } from '../../../contract/pipeline-graph.ts';
import { AppError } from '../../errors.ts';
import { type Resolve, systemResolve } from '../../net/safe-fetch.ts';
import {
  assertAddressAllowed,
  assertUrlAllowed,
  describeUrl,
  normalizeHost,
  type UrlPolicy,
} from '../../net/url-policy.ts';

/** What a checked URL is for: inputs the job reads, or the webhook it calls when it ends. */
export type UrlUse = 'input' | 'webhook';

/** Checks URLs a request names; 403 `forbidden` for a blocked or non-public host. */
export type CheckUrls = (urls: string[], use?: UrlUse) => Promise<void>;

const LABEL: Record<UrlUse, string> = { input: 'Input URL', webhook: 'Webhook URL' };

/**
 * Checks a request's URLs before the job is taken (spec: 403 `forbidden` for blocked or non-public
 * hosts): scheme, blocked domains, IP literals in any notation, and every address the name resolves
 * to. The fetcher (and the webhook sender) checks again at connect time, so a name that changes its
 * answer later is still refused. Input URLs of our own stored files are read from storage and need no
 * check; a webhook is always called over the network, so it has no such exception.
 */
export function inputUrlChecker(
  policy: UrlPolicy,
  ownFilesPrefix: string,
  resolve: Resolve = systemResolve,
): CheckUrls {
  return async (urls, use = 'input') => {
    for (const raw of urls) {
      if (use === 'input' && raw.startsWith(ownFilesPrefix)) continue;
      const url = assertUrlAllowed(raw, policy);
      const host = normalizeHost(url.hostname);
      if (isIP(host) || policy.allowPrivateNetwork) continue;
      let addresses: Awaited<ReturnType<Resolve>>;
      try {
        addresses = await resolve(host);
      } catch {
        throw new AppError(
          'invalid_request',
          `${LABEL[use]} ${describeUrl(url)}: the host ${host} could not be resolved.`,
          {
            status: 422,
            details: { url: describeUrl(url) },
          },
        );
      }
      for (const { address } of addresses) assertAddressAllowed(address, policy, url);
    }
  };
}

/**
 * Every URL a job-creating body names, wherever it sits: `files[].url`, `video_url`, a render's
 * `layers[].url`, each pipeline step's input, and any later field named `url` or `*_url`; `webhook_url`s
 * (the body's and its steps') apart. All are checked when the job is created, so a blocked host is the
 * same 403 whichever field names it, never a job that fails later. A pipeline step's reference to another
 * step's output (`{{steps.<id>.output.url}}`) is our own file once resolved: only what surrounds it is
 * checked, and a bare reference is not a URL to check.
 */
export function requestUrls(body: unknown): { inputs: string[]; webhooks: string[] } {
  const inputs: string[] = [];
  const webhooks: string[] = [];
  const walk = (value: unknown, key: string | null) => {
    if (typeof value === 'string') {
      if (key === null || !(key === 'url' || key.endsWith('_url'))) return;
      const url = value.replace(PIPELINE_REFERENCE, '').trim();
      if (url === '') return;
      (key === 'webhook_url' ? webhooks : inputs).push(url);
    } else if (Array.isArray(value)) {
      for (const item of value) walk(item, key);
    } else if (value && typeof value === 'object') {
      for (const [name, item] of Object.entries(value)) walk(item, name);
    }
  };
  walk(body, null);
  return { inputs: [...new Set(inputs)], webhooks: [...new Set(webhooks)] };
}
