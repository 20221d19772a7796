import { Alert } from './alert.tsx';
import { Button } from './button.tsx';

interface LoadFailedProps {
  /** What could not be loaded, as a sentence ("The ledger could not be loaded"). */
  title: string;
  /** The failure, whose message says why (the server's envelope message, or the network's). */
  error?: Error | null;
  onRetry: () => void;
}

/** A part of a page whose data could not be loaded: what, why, and a way to ask again. */
export function LoadFailed({ title, error, onRetry }: LoadFailedProps) {
  return (
    <Alert tone="error" title={title}>
      {error?.message && <span className="block">{error.message}</span>}
      <Button variant="secondary" size="sm" className="mt-2" onClick={onRetry}>
        Retry now
      </Button>
    </Alert>
  );
}
