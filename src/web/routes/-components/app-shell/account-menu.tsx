import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { signOut } from '../../../auth/auth.ts';
import { formatCredits, formatCreditsAndDollars } from '../../../format/credits.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { forgetCurrentTeam } from '../../../team/current-team.ts';

const MENU_ITEM =
  'rounded-lg px-2 py-2 text-left text-sm text-zinc-700 hover:bg-zinc-100 disabled:opacity-60 dark:text-zinc-300 dark:hover:bg-zinc-800';

/** Who is signed in, for which team, with what balance; and the way out. A disclosure, closed by Escape or a click outside. */
export function AccountMenu() {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  async function onSignOut() {
    setLeaving(true);
    await signOut();
    // The next person at this browser starts in their own team.
    forgetCurrentTeam();
    await router.navigate({ to: '/sign-in' });
    // Only once nothing on screen reads it: the next person must not see this one's data.
    queryClient.clear();
  }

  const name = me.person?.email ?? 'API key';
  const initial = (me.person?.display_name || me.person?.email || '?').charAt(0).toUpperCase();

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        className="flex items-center gap-3 rounded-lg py-1 pr-2 pl-1 text-left transition-colors hover:bg-zinc-100 dark:hover:bg-zinc-800/70"
      >
        <span className="sr-only">Account menu</span>
        <span
          aria-hidden="true"
          className="grid size-8 place-items-center rounded-full bg-zinc-900 text-sm font-semibold text-white dark:bg-zinc-100 dark:text-zinc-900"
        >
          {initial}
        </span>
        <span className="hidden min-w-0 sm:block">
          <span className="block max-w-48 truncate text-sm font-medium">{name}</span>
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
            {formatCredits(me.balance_cents)}
          </span>
        </span>
      </button>
      {open && (
        <div
          id={panelId}
          className="absolute right-0 z-30 mt-2 w-72 rounded-xl border border-zinc-200 bg-white p-2 shadow-lg dark:border-zinc-800 dark:bg-zinc-900"
        >
          <dl className="space-y-3 px-2 py-2 text-sm">
            <div>
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">Signed in as</dt>
              <dd className="truncate font-medium">{name}</dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">Team</dt>
              <dd>
                {me.team.name} <span className="text-zinc-500 dark:text-zinc-400">· {me.role}</span>
              </dd>
            </div>
            <div>
              <dt className="text-xs text-zinc-500 dark:text-zinc-400">Balance</dt>
              <dd className="font-medium tabular-nums">{formatCreditsAndDollars(me.balance_cents)}</dd>
            </div>
          </dl>
          <div className="mt-1 flex flex-col border-t border-zinc-200 pt-2 dark:border-zinc-800">
            <Link to="/settings" onClick={() => setOpen(false)} className={MENU_ITEM}>
              Settings
            </Link>
            <button type="button" onClick={onSignOut} disabled={leaving} className={MENU_ITEM}>
              {leaving ? 'Signing out…' : 'Sign out'}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
