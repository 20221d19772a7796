import { lazy, Suspense, useId, useState } from 'react';
import { Spinner } from '../../../components/spinner.tsx';

// The form (its checks, zod and the server probe) loads when the panel opens, not with the sign-in page.
const ServerSettingsForm = lazy(() =>
  import('../settings/server-settings-form.tsx').then((m) => ({ default: m.ServerSettingsForm })),
);

interface OtherServerProps {
  /** After saving: the page goes on if the settings carry an API key, else the person signs in by email there. */
  onSaved: () => void | Promise<void>;
}

/** For servers without email sign-in, or another server altogether: base URL and API key. */
export function OtherServer({ onSaved }: OtherServerProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="mt-6">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="mx-auto block rounded text-sm text-zinc-600 hover:text-zinc-900 hover:underline dark:text-zinc-400 dark:hover:text-zinc-100"
      >
        Use an API key or another server
      </button>
      {open && (
        <div
          id={panelId}
          className="mt-4 rounded-2xl border border-zinc-200 bg-white p-6 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <Suspense fallback={<Spinner />}>
            <ServerSettingsForm onSaved={onSaved} />
          </Suspense>
        </div>
      )}
    </div>
  );
}
