import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { CloseButton } from '../../../components/close-button.tsx';
import { API_REFERENCE_HREF } from '../app-shell/api-reference-link.tsx';
import { SNIPPET_LANGUAGES, type SnippetLanguage } from './request-snippets.ts';

interface CopyRequestProps {
  /** The form as it is now in a language, with a new Idempotency-Key (only when a button is pressed). */
  snippet: (language: SnippetLanguage) => string;
}

/**
 * "Copy as …" the current form, one button per language of request-snippets.ts, with a spoken
 * confirmation. Once copied, a note says where the snippet's `$MEDIA_API_KEY` comes from (the console's
 * own session is never in it) and where the API is described.
 */
export function CopyRequest({ snippet }: CopyRequestProps) {
  const [copied, setCopied] = useState<string | null>(null);
  // Without clipboard access (permissions, plain http) the text is shown to copy by hand.
  const [fallback, setFallback] = useState<string | null>(null);
  const [noteOpen, setNoteOpen] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(null), 2500);
    return () => window.clearTimeout(timer);
  }, [copied]);

  async function copy(language: SnippetLanguage) {
    const text = snippet(language);
    const label = language.noun;
    setNoteOpen(true);
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
      <fieldset className="flex min-w-0 flex-wrap items-center gap-1">
        <legend className="sr-only">Copy the request</legend>
        {SNIPPET_LANGUAGES.map((language) => (
          <Button key={language.id} variant="ghost" size="sm" onClick={() => void copy(language)}>
            Copy as {language.label}
          </Button>
        ))}
        <a
          href={API_REFERENCE_HREF}
          className="px-2 text-xs font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          API reference
        </a>
        <span role="status" className="text-xs text-zinc-600 dark:text-zinc-400">
          {copied}
        </span>
      </fieldset>
      {noteOpen && <ApiKeyNote onClose={() => setNoteOpen(false)} />}
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

/** How to give the snippet a key, that running it twice is safe, and where every route is described. */
function ApiKeyNote({ onClose }: { onClose: () => void }) {
  return (
    <section
      aria-label="Running the copied request"
      className="flex items-start gap-2 rounded-lg border border-zinc-200 bg-white py-1.5 pr-3 pl-3 text-xs text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
    >
      <p className="flex-1">
        Set <code className="font-mono">$MEDIA_API_KEY</code> to a key from the{' '}
        <Link to="/keys" className="font-medium text-indigo-700 underline dark:text-indigo-300">
          Keys page
        </Link>{' '}
        first (<code className="font-mono select-all">export MEDIA_API_KEY=mcsk_…</code>). Running the same
        copy again replays its job, never pays twice. Every route and field is in the{' '}
        <a href={API_REFERENCE_HREF} className="font-medium text-indigo-700 underline dark:text-indigo-300">
          API reference
        </a>
        .
      </p>
      <CloseButton label="Close the note" onClick={onClose} />
    </section>
  );
}
