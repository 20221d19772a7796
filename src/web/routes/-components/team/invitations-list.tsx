import type { z } from 'zod';
import type { TeamInvitation } from '../../../../contract/team.ts';
import { Button } from '../../../components/button.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { personName } from '../keys/person-name.ts';
import { ROLE_LABELS } from './team-permissions.ts';

export type Invitation = z.infer<typeof TeamInvitation>;

/** Invitations not yet taken up: who, with which role, sent by whom, until when. */
export function InvitationsList({
  invitations,
  onWithdraw,
}: {
  invitations: readonly Invitation[];
  onWithdraw: (invitation: Invitation) => void;
}) {
  return (
    <section aria-labelledby="pending-invitations" className="mt-10">
      <h2 id="pending-invitations" className="text-base font-semibold">
        Pending invitations
      </h2>
      {invitations.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">None.</p>
      ) : (
        <ul className="mt-3 divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {invitations.map((invitation) => (
            <li
              key={invitation.id}
              className="flex flex-wrap items-baseline justify-between gap-2 px-4 py-3 text-sm"
            >
              <span className="min-w-0">
                <span className="font-medium break-all">{invitation.email}</span>
                <span className="text-zinc-600 dark:text-zinc-400">
                  {' '}
                  as {ROLE_LABELS[invitation.role].toLowerCase()}
                </span>
              </span>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                {invitation.invited_by ? `Invited by ${personName(invitation.invited_by)} · ` : ''}
                expires {formatDateTime(invitation.expires_at)}
              </span>
              <Button
                variant="danger-ghost"
                size="sm"
                onClick={() => onWithdraw(invitation)}
                aria-label={`Withdraw the invitation of ${invitation.email}`}
              >
                Withdraw
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
