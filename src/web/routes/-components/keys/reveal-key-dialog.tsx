import { useEffect, useId, useState } from 'react';
import type { ApiKey } from '../../../../contract/api-keys.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { useRevealApiKey } from '../../../queries/api-keys.ts';
import { useCountdown } from '../sign-in/use-countdown.ts';
import { keyPreview } from './key-preview.ts';
import { SecretValue } from './secret-value.tsx';

/** How long a revealed key stays on screen before it hides itself again. */
export const REVEAL_SECONDS = 30;

interface Shown {
  value: string;
  hideAt: number;
}

/**
 * Shows a revealable key again, on request (each reveal is logged on the server, so opening the dialog
 * alone reveals nothing). The key hides itself after 30 seconds and when the dialog closes.
 */
export function RevealKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const reveal = useRevealApiKey(apiKey.id);
  const [shown, setShown] = useState<Shown | null>(null);
  const [hiddenAgain, setHiddenAgain] = useState(false);
  const secondsLeft = useCountdown(shown?.hideAt ?? null);
  const revealButtonId = useId();

  // The control that had focus leaves with the key: hand focus to the button that shows it again.
  useEffect(() => {
    if (hiddenAgain) document.getElementById(revealButtonId)?.focus();
  }, [hiddenAgain, revealButtonId]);

  useEffect(() => {
    if (!shown) return;
    const timer = setTimeout(() => {
      setShown(null);
      setHiddenAgain(true);
    }, shown.hideAt - Date.now());
    return () => clearTimeout(timer);
  }, [shown]);

  async function onReveal() {
    setHiddenAgain(false);
    try {
      const { api_key } = await reveal.mutateAsync();
      setShown({ value: api_key, hideAt: Date.now() + REVEAL_SECONDS * 1000 });
    } catch {
      // Shown below from the mutation's error.
    }
  }

  return (
    <ModalDialog
      title={`Reveal “${apiKey.name}”`}
      description={
        <>
          Key <span className="font-mono">{keyPreview(apiKey)}</span>. Every reveal is logged with who, when
          and from where; the owner and the team's managers can read the log.
        </>
      }
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          {!shown && (
            <Button id={revealButtonId} onClick={onReveal} pending={reveal.isPending} data-autofocus>
              {hiddenAgain ? 'Show again' : 'Show key'}
            </Button>
          )}
        </>
      }
    >
      <div className="flex flex-col gap-3">
        {shown ? (
          <>
            <SecretValue label="API key" value={shown.value} autoFocus />
            <RevealCountdown secondsLeft={secondsLeft} />
          </>
        ) : (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            The key is shown for {REVEAL_SECONDS} seconds, then hidden again.
          </p>
        )}
        <p role="status" className="sr-only">
          {shown
            ? `The key is shown for ${REVEAL_SECONDS} seconds.`
            : hiddenAgain
              ? 'The key is hidden again.'
              : ''}
        </p>
        {hiddenAgain && !shown && <Alert>The key is hidden again.</Alert>}
        {reveal.error && <Alert tone="error">{errorMessage(reveal.error)}</Alert>}
      </div>
    </ModalDialog>
  );
}

/** A bar that empties and a number that counts down (not live: screen readers hear the start and the end). */
function RevealCountdown({ secondsLeft }: { secondsLeft: number }) {
  return (
    <div className="flex items-center gap-3 text-xs text-zinc-600 dark:text-zinc-400">
      <div
        aria-hidden="true"
        className="h-1.5 flex-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
      >
        <div
          className="h-full rounded-full bg-amber-500 transition-[width] duration-1000 ease-linear motion-reduce:transition-none"
          style={{ width: `${(secondsLeft / REVEAL_SECONDS) * 100}%` }}
        />
      </div>
      <span className="tabular-nums">Hides in {secondsLeft} s</span>
    </div>
  );
}
