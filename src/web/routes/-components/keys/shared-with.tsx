import { useQuery } from '@tanstack/react-query';
import type { ApiKey } from '../../../../contract/api-keys.ts';
import { apiKeySharesQueryOptions } from '../../../queries/api-keys.ts';
import { AvatarStack } from './person-avatar.tsx';

/** The people a key is shared with, as avatars; asked for only when there are some. */
export function SharedWith({ apiKey }: { apiKey: ApiKey }) {
  const shares = useQuery({ ...apiKeySharesQueryOptions(apiKey.id), enabled: apiKey.share_count > 0 });
  if (apiKey.share_count === 0) return <span className="text-zinc-500 dark:text-zinc-400">Nobody</span>;
  if (!shares.data) {
    // Loading, or not ours to list: the count is still true.
    return (
      <span className="text-zinc-600 dark:text-zinc-400">
        {apiKey.share_count} {apiKey.share_count === 1 ? 'person' : 'people'}
      </span>
    );
  }
  return <AvatarStack people={shares.data.shares} />;
}
