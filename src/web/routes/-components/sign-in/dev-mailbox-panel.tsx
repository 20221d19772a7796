import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { formatRelativeTime } from '../../../format/time.ts';
import { devMailboxQueryOptions } from '../../../queries/dev-mailbox.ts';

interface DevMailboxPanelProps {
  email: string;
  onUseCode: (code: string) => void;
}

const SHOWN = 5;

/**
 * On a server without SMTP, the mail it would have sent is readable over the API. This panel shows
 * it, so a person on a development server can sign in without an inbox. It stays hidden when the
 * server has no dev mailbox (404) or the probe fails.
 */
export function DevMailboxPanel({ email, onUseCode }: DevMailboxPanelProps) {
  const mailbox = useQuery(devMailboxQueryOptions(email));
  const [open, setOpen] = useState(false);
  const panelId = useId();
  if (!mailbox.data) return null;
  const messages = mailbox.data.slice(0, SHOWN);

  return (
    <section
      aria-label="Dev mailbox"
      className="rounded-lg border border-amber-200 bg-amber-50/60 text-sm dark:border-amber-900/60 dark:bg-amber-950/20"
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          if (!open) void mailbox.refetch();
          setOpen(!open);
        }}
        className="flex w-full items-center justify-between gap-2 rounded-lg px-3.5 py-2.5 text-left font-medium text-amber-900 dark:text-amber-200"
      >
        {open ? 'Close dev mailbox' : 'Open dev mailbox'}
        <span aria-hidden="true" className="text-xs">
          {open ? '▴' : '▾'}
        </span>
      </button>
      {open && (
        <div id={panelId} className="border-t border-amber-200 px-3.5 py-3 dark:border-amber-900/60">
          <p className="text-xs text-amber-900/80 dark:text-amber-200/80">
            This server has no email delivery set up, so it keeps the mail it would send. Only a browser on
            the server's own machine can read it here.
          </p>
          {messages.length === 0 ? (
            <p className="mt-3 text-zinc-700 dark:text-zinc-300">No messages to {email} yet.</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-2" aria-label={`Messages to ${email}`}>
              {messages.map((message) => (
                <li
                  key={`${message.sent_at}-${message.subject}`}
                  className="flex items-center justify-between gap-3 rounded-md bg-white px-3 py-2 ring-1 ring-amber-200 dark:bg-zinc-900 dark:ring-amber-900/60"
                >
                  <div className="min-w-0">
                    <p className="text-zinc-900 dark:text-zinc-100">{message.subject}</p>
                    <p className="text-xs text-zinc-600 dark:text-zinc-400">
                      <time dateTime={message.sent_at}>{formatRelativeTime(message.sent_at)}</time>
                    </p>
                  </div>
                  {message.code && (
                    <div className="flex shrink-0 items-center gap-2">
                      <code className="font-mono text-base tracking-widest text-zinc-900 dark:text-zinc-100">
                        {message.code}
                      </code>
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => message.code && onUseCode(message.code)}
                      >
                        Sign in with this code
                      </Button>
                    </div>
                  )}
                </li>
              ))}
            </ul>
          )}
          <Button
            size="sm"
            variant="ghost"
            className="mt-2"
            onClick={() => void mailbox.refetch()}
            pending={mailbox.isFetching}
          >
            Refresh
          </Button>
        </div>
      )}
    </section>
  );
}
