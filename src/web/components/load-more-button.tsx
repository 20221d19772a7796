import { Button } from './button.tsx';

interface OlderPage {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Show older entries" under a paged log (billing's ledger, the audit log): nothing when there is no more. */
export function LoadMoreButton({ query }: { query: OlderPage }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button
        variant="secondary"
        onClick={() => void query.fetchNextPage()}
        disabled={query.isFetchingNextPage}
      >
        {query.isFetchingNextPage ? 'Loading…' : 'Show older entries'}
      </Button>
    </div>
  );
}
