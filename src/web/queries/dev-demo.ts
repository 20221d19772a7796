import { queryOptions } from '@tanstack/react-query';
import { ApiError } from '../../client/api-error.ts';
import { api } from '../api/client.ts';
import { resolveBaseUrl, serverSettingsStore } from '../api/server-settings.ts';

export const devDemoKeys = {
  all: ['dev-demo'] as const,
  /** Per server: another server (Settings on the sign-in page) has its own demo or none. */
  on: (baseUrl: string) => ['dev-demo', baseUrl] as const,
};

/**
 * The demo owner's address when the server keeps a dev mailbox and `npm run seed:demo` has run, else
 * null: the server answers `email: null` without the demo team, and 404 with SMTP configured (as do
 * other v2 servers, which lack the endpoint).
 */
export function devDemoQueryOptions() {
  return queryOptions({
    queryKey: devDemoKeys.on(resolveBaseUrl(serverSettingsStore.get())),
    queryFn: async () => {
      try {
        const { email } = await api().devDemo();
        return email === null ? null : { email };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
  });
}
