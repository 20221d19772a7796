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
 * null: the server answers 404 with SMTP configured or without the demo team (other v2 servers lack it).
 */
export function devDemoQueryOptions() {
  return queryOptions({
    queryKey: devDemoKeys.on(resolveBaseUrl(serverSettingsStore.get())),
    queryFn: async () => {
      try {
        return await api().devDemo();
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    retry: false,
  });
}
