import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { TopUp } from '../../../../contract/billing.ts';
import type { TeamMember } from '../../../../contract/team.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { meQueryOptions } from '../../../queries/me.ts';
import { teamMembersQueryOptions } from '../../../queries/team.ts';

/** Below this many credits (one hundred dollars' worth is 10,000) the panel says the balance is low. */
export const LOW_BALANCE_CENTS = 100;

/**
 * How this team gets more credits, for the person reading: an owner gets the way this server offers (the
 * operator's top-up page, or the exact command the operator runs on the server); anyone else is told
 * that owners add credits, and which people those are.
 */
export function AddCredits({ topUp, balanceCents }: { topUp: TopUp; balanceCents: number }) {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const low = balanceCents < LOW_BALANCE_CENTS;
  return (
    <section
      aria-labelledby="add-credits"
      className={
        low
          ? 'mb-8 rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-800/70 dark:bg-amber-950/30'
          : 'mb-8 rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900'
      }
    >
      <h2 id="add-credits" className="text-base font-semibold text-zinc-950 dark:text-white">
        {low ? 'Credits are running low' : 'Add credits'}
      </h2>
      {me.role === 'owner' ? <OwnerTopUp topUp={topUp} /> : <AskAnOwner />}
    </section>
  );
}

function OwnerTopUp({ topUp }: { topUp: TopUp }) {
  if (topUp.url) {
    return (
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        As an owner of this team you add credits on this server's top-up page.{' '}
        <a
          href={topUp.url}
          target="_blank"
          rel="noreferrer"
          className="font-medium text-indigo-700 underline underline-offset-2 hover:no-underline dark:text-indigo-300"
        >
          Add credits
          <span className="sr-only"> (opens in a new tab)</span>
        </a>
      </p>
    );
  }
  return (
    <div className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
      <p>
        This server adds credits by hand: ask its operator to run this command on the server, with the number
        of credits you want (100 credits are $1.00).
      </p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code className="rounded bg-zinc-100 px-2 py-1 font-mono text-xs break-all text-zinc-900 dark:bg-zinc-800 dark:text-zinc-100">
          {topUp.command}
        </code>
        <CopyButton value={topUp.command} label="Copy command" />
      </div>
    </div>
  );
}

function AskAnOwner() {
  const members = useQuery(teamMembersQueryOptions());
  const owners = members.data?.data.filter((member) => member.role === 'owner') ?? [];
  return (
    <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
      Only an owner of this team can add credits.{' '}
      {members.isPending
        ? 'Looking up who they are…'
        : owners.length > 0
          ? `Ask ${namesOf(owners)}.`
          : 'Ask an owner of the team (see the Team page).'}
    </p>
  );
}

/** "Ada (ada@example.com)", "Ada (…) or Olga (…)", "Ada (…), Bob (…) or Olga (…)". */
function namesOf(owners: TeamMember[]): string {
  const names = owners.map((owner) =>
    owner.display_name && owner.display_name !== owner.email
      ? `${owner.display_name} (${owner.email})`
      : owner.email,
  );
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
