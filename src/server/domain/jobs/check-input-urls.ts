import { isIP } from 'node:net';
import { AppError } from '../../errors.ts';
import { type Resolve, systemResolve } from '../../net/safe-fetch.ts';
import {
  assertAddressAllowed,
  assertUrlAllowed,
  describeUrl,
  normalizeHost,
  type UrlPolicy,
} from '../../net/url-policy.ts';

/**
 * Checks a request's input URLs before the job is taken (spec: 403 `forbidden` for blocked or
 * non-public hosts): scheme, blocked domains, IP literals in any notation, and every address the name
 * resolves to. The fetcher checks again at connect time, so a name that changes its answer later
 * is still refused. URLs of our own stored files are read from storage and need no check.
 */
export function inputUrlChecker(policy: UrlPolicy, ownFilesPrefix: string, resolve: Resolve = systemResolve) {
  return async (urls: string[]): Promise<void> => {
    for (const raw of urls) {
      if (raw.startsWith(ownFilesPrefix)) continue;
      const url = assertUrlAllowed(raw, policy);
      const host = normalizeHost(url.hostname);
      if (isIP(host) || policy.allowPrivateNetwork) continue;
      let addresses: Awaited<ReturnType<Resolve>>;
      try {
        addresses = await resolve(host);
      } catch {
        throw new AppError(
          'invalid_request',
          `Input URL ${describeUrl(url)}: the host ${host} could not be resolved.`,
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
