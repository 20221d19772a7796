import { createFileRoute } from '@tanstack/react-router';
import { apiKeysQueryOptions } from '../queries/api-keys.ts';
import { meQueryOptions } from '../queries/me.ts';
import { KeysPage } from './-components/keys/keys-page.tsx';

/** API keys: create, reveal, share, revoke, and the reveal log. */
export const Route = createFileRoute('/_app/keys')({
  loader: ({ context: { queryClient } }) =>
    Promise.all([
      queryClient.ensureQueryData(apiKeysQueryOptions()),
      queryClient.ensureQueryData(meQueryOptions()),
    ]),
  component: KeysPage,
});
