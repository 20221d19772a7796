import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useId, useState, useSyncExternalStore } from 'react';
import { CloseButton } from '../../../components/close-button.tsx';
import { cx } from '../../../components/cx.ts';
import { useMediaQuery } from '../../../components/use-media-query.ts';
import { apiKeysQueryOptions } from '../../../queries/api-keys.ts';
import { API_REFERENCE_HREF } from '../app-shell/api-reference-link.tsx';
import { getStartedHidden, hasAnyJobQueryOptions, keysPageSeen } from './get-started-progress.ts';

const LINK = 'font-medium text-indigo-700 underline dark:text-indigo-300';

/**
 * "Get started" on the first screen, until a new person has done the three things that make the
 * product theirs: make something here, get their key, call the API. Each step says how, links where it
 * happens and is ticked once done; the panel goes when all three are, or when hidden.
 */
export function GetStarted() {
  const hidden = useSyncExternalStore(getStartedHidden.subscribe, getStartedHidden.get);
  const keysSeen = useSyncExternalStore(keysPageSeen.subscribe, keysPageSeen.get);
  const anyJob = useQuery({ ...hasAnyJobQueryOptions(), enabled: !hidden });
  const keys = useQuery({ ...apiKeysQueryOptions(), enabled: !hidden });
  // On a phone the steps fold away (one line), so the form and its Run bar stay in reach.
  const narrow = useMediaQuery('(max-width: 639px)');
  const [expanded, setExpanded] = useState<boolean | null>(null);
  const open = expanded ?? !narrow;
  const stepsId = useId();
  // Until both answers are in, nothing: the panel must not flash for someone who has done it all.
  if (hidden || anyJob.data === undefined || keys.data === undefined) return null;
  const made = anyJob.data;
  const called = keys.data.some((key) => key.last_used_at !== null);
  const gotKey = keysSeen || called;
  if (made && gotKey && called) return null;
  const done = [made, gotKey, called].filter(Boolean).length;

  return (
    <section
      aria-labelledby="get-started-heading"
      className="mb-6 rounded-xl border border-indigo-200 bg-indigo-50/60 p-4 dark:border-indigo-900 dark:bg-indigo-950/40"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id="get-started-heading" className="text-base font-semibold text-zinc-900 dark:text-zinc-100">
            Get started
          </h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {done} of 3 done
            {narrow && (
              <>
                {' · '}
                <button
                  type="button"
                  aria-expanded={open}
                  aria-controls={stepsId}
                  onClick={() => setExpanded(!open)}
                  className={LINK}
                >
                  {open ? 'Hide the steps' : 'Show the steps'}
                </button>
              </>
            )}
          </p>
        </div>
        <CloseButton label="Hide get started" onClick={() => getStartedHidden.set(true)} />
      </div>
      <ol id={stepsId} hidden={!open} className="mt-3 grid gap-3 sm:grid-cols-3">
        <Step number={1} done={made} title="Make something">
          Pick a tool below, fill in the form and press <strong>Run</strong>. Your first image takes a few
          seconds.
        </Step>
        <Step number={2} done={gotKey} title="Get your key">
          Your account came with an API key: find it on the{' '}
          <Link to="/keys" className={LINK}>
            Keys page
          </Link>
          , or make one for each program.
        </Step>
        <Step number={3} done={called} title="Call the API">
          Copy the form as cURL, JavaScript or Python (under the form) and run it with your key; every route
          is in the{' '}
          <a href={API_REFERENCE_HREF} className={LINK}>
            API reference
          </a>
          .
        </Step>
      </ol>
    </section>
  );
}

function Step({
  number,
  done,
  title,
  children,
}: {
  number: number;
  done: boolean;
  title: string;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-3 rounded-lg bg-white p-3 dark:bg-zinc-900">
      <span
        aria-hidden="true"
        className={cx(
          'grid size-6 shrink-0 place-items-center rounded-full text-xs font-semibold',
          done
            ? 'bg-emerald-600 text-white dark:bg-emerald-500 dark:text-zinc-950'
            : 'bg-zinc-200 text-zinc-700 dark:bg-zinc-700 dark:text-zinc-200',
        )}
      >
        {done ? '✓' : number}
      </span>
      <div className="flex flex-col gap-1 text-sm text-zinc-700 dark:text-zinc-300">
        <h3 className="font-medium text-zinc-900 dark:text-zinc-100">
          {title}
          <span className="sr-only">{done ? ' (done)' : ' (to do)'}</span>
        </h3>
        <p>{children}</p>
      </div>
    </li>
  );
}
