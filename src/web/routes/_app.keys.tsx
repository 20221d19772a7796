import { createFileRoute } from '@tanstack/react-router';
import { apiKeysQueryOptions } from '../queries/api-keys.ts';
import { meQueryOptions } from '../queries/me.ts';
import { flag, searchParams } from '../search-params/fields.ts';
import { KeysPage } from './-components/keys/keys-page.tsx';

/** `?revoked=true` lists revoked keys too (their reveal logs stay readable). */
const KeysSearch = searchParams({ revoked: flag });

/** API keys: create, reveal, share, revoke, and the reveal log. */
export const Route = createFileRoute('/_app/keys')({
  validateSearch: KeysSearch,
  loaderDeps: ({ search }) => ({ revoked: search.revoked === true }),
  loader: ({ context: { queryClient }, deps }) =>
    Promise.all([
      queryClient.ensureQueryData(apiKeysQueryOptions(deps.revoked)),
      queryClient.ensureQueryData(meQueryOptions()),
    ]),
  component: KeysRoute,
});

function KeysRoute() {
  const { revoked } = Route.useSearch();
  return <KeysPage includeRevoked={revoked === true} />;
}
