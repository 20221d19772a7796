import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button.tsx';

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A secret on screen: selectable monospace text and a Copy button. Nothing is written to storage; the
 * value is gone when the component leaves.
 */
export function SecretValue({
  label,
  value,
  autoFocus = false,
}: {
  label: string;
  value: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // Focus moves in the commit that draws the field (a passive effect may run a task later).
  useLayoutEffect(() => {
    if (autoFocus) input.current?.focus();
  }, [autoFocus]);
  const [copy, setCopy] = useState<CopyState>('idle');

  useEffect(() => {
    if (copy === 'idle') return;
    const timer = setTimeout(() => setCopy('idle'), 2_000);
    return () => clearTimeout(timer);
  }, [copy]);

  async function onCopy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopy('copied');
    } catch {
      // No clipboard permission (or no secure context): the text stays selectable.
      setCopy('failed');
    }
  }

  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <div className="flex items-stretch gap-2">
        <input
          id={id}
          ref={input}
          readOnly
          value={value}
          spellCheck={false}
          autoComplete="off"
          onFocus={(event) => event.currentTarget.select()}
          className="h-10 min-w-0 flex-1 rounded-lg border border-zinc-300 bg-zinc-50 px-3 font-mono text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-950 dark:text-zinc-100"
        />
        <Button variant="secondary" onClick={onCopy}>
          Copy
        </Button>
      </div>
      <p role="status" className="min-h-4 text-xs text-zinc-600 dark:text-zinc-400">
        {copy === 'copied' && 'Copied to the clipboard.'}
        {copy === 'failed' && 'Could not copy: select the key and copy it yourself.'}
      </p>
    </div>
  );
}
