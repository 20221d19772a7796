import type { TeamMember } from '../../../../contract/team.ts';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { PersonAvatar } from '../keys/person-avatar.tsx';
import { personName } from '../keys/person-name.ts';
import { type Actor, assignableRoles, ROLE_LABELS, removal } from './team-permissions.ts';

export type MemberAction = 'role' | 'remove';

const HEAD = 'px-3 py-2.5 text-left text-xs font-medium whitespace-nowrap text-zinc-600 dark:text-zinc-400';
const CELL = 'px-3 py-3 align-middle';

/** The team's members and roles; each row offers only what the caller's role allows. */
export function MembersTable({
  members,
  actor,
  onAction,
}: {
  members: readonly TeamMember[];
  actor: Actor;
  onAction: (action: MemberAction, member: TeamMember) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <table className="w-full min-w-[40rem] text-sm">
        <caption className="sr-only">Members</caption>
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            <th scope="col" className={HEAD}>
              Member
            </th>
            <th scope="col" className={HEAD}>
              Role
            </th>
            <th scope="col" className={HEAD}>
              Joined
            </th>
            <th scope="col" className={HEAD}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {members.map((member) => {
            const name = personName(member);
            const isSelf = member.user_id === actor.userId;
            const canChange = assignableRoles(actor, member).length > 0;
            const remove = removal(actor, member);
            return (
              <tr key={member.user_id}>
                <th scope="row" className={`${CELL} text-left font-normal`}>
                  <span className="flex items-center gap-2.5">
                    <PersonAvatar person={member} />
                    <span className="min-w-0">
                      <span className="block truncate font-medium">
                        {name}
                        {isSelf && (
                          <span className="font-normal text-zinc-600 dark:text-zinc-400"> (you)</span>
                        )}
                      </span>
                      {name !== member.email && (
                        <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">
                          {member.email}
                        </span>
                      )}
                    </span>
                  </span>
                </th>
                <td className={CELL}>
                  <Badge tone={member.role === 'member' ? 'muted' : 'neutral'}>
                    {ROLE_LABELS[member.role]}
                  </Badge>
                </td>
                <td className={`${CELL} whitespace-nowrap`}>{formatDateTime(member.joined_at)}</td>
                <td className={`${CELL} text-right whitespace-nowrap`}>
                  <div className="flex justify-end gap-1">
                    {canChange && (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => onAction('role', member)}
                        aria-label={`Change role of ${name}`}
                      >
                        Change role
                      </Button>
                    )}
                    {remove && (
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-red-700! hover:bg-red-50! dark:text-red-400! dark:hover:bg-red-950/40!"
                        onClick={() => onAction('remove', member)}
                        aria-label={remove === 'leave' ? 'Leave team' : `Remove ${name}`}
                      >
                        {remove === 'leave' ? 'Leave team' : 'Remove'}
                      </Button>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
