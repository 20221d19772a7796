import { useEffect, useState } from 'react';
import { Button } from '../../../components/button.tsx';

interface CopyRequestProps {
  /** Builds the snippets from the form as it is now (only when a button is pressed). */
  snippets: () => { curl: string; typescript: string };
}

/** "Copy as cURL" and "Copy as TypeScript" for the current form, with a spoken confirmation. */
export function CopyRequest({ snippets }: CopyRequestProps) {
  const [copied, setCopied] = useState<string | null>(null);
  // Without clipboard access (permissions, plain http) the text is shown to copy by hand.
  const [fallback, setFallback] = useState<string | null>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(null), 2500);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function copy(kind: 'curl' | 'typescript') {
    const text = snippets()[kind];
    const label = kind === 'curl' ? 'cURL command' : 'TypeScript';
    try {
      await navigator.clipboard.writeText(text);
      setFallback(null);
      setCopied(`Copied the ${label}.`);
    } catch {
      setFallback(text);
      setCopied(`The clipboard is not available: select the ${label} below and copy it.`);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-1">
        <Button variant="ghost" size="sm" onClick={() => void copy('curl')}>
          Copy as cURL
        </Button>
        <Button variant="ghost" size="sm" onClick={() => void copy('typescript')}>
          Copy as TypeScript
        </Button>
        <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {copied}
        </span>
      </div>
      {fallback && (
        <textarea
          readOnly
          aria-label="Request to copy"
          value={fallback}
          rows={8}
          onFocus={(event) => event.currentTarget.select()}
          className="w-full rounded-lg border border-zinc-300 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
        />
      )}
    </div>
  );
}
