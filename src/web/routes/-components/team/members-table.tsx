import type { TeamMember } from '../../../../contract/team.ts';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { ColumnHeading, DataTable, TABLE_CELL } from '../../../components/data-table.tsx';
import { formatDateTime } from '../../../format/date-time.ts';
import { PersonAvatar } from '../keys/person-avatar.tsx';
import { personName } from '../keys/person-name.ts';
import { type Actor, assignableRoles, ROLE_LABELS, removal } from './team-permissions.ts';

export type MemberAction = 'role' | 'remove';

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
    <DataTable
      caption="Members"
      minWidth="min-w-[40rem]"
      headings={
        <>
          <ColumnHeading>Member</ColumnHeading>
          <ColumnHeading>Role</ColumnHeading>
          <ColumnHeading>Joined</ColumnHeading>
          <ColumnHeading>
            <span className="sr-only">Actions</span>
          </ColumnHeading>
        </>
      }
    >
      {members.map((member) => {
        const name = personName(member);
        const isSelf = member.user_id === actor.userId;
        const canChange = assignableRoles(actor, member).length > 0;
        const remove = removal(actor, member);
        return (
          <tr key={member.user_id}>
            <th scope="row" className={`${TABLE_CELL} text-left font-normal`}>
              <span className="flex items-center gap-2.5">
                <PersonAvatar person={member} />
                <span className="min-w-0">
                  <span className="block truncate font-medium">
                    {name}
                    {isSelf && <span className="font-normal text-zinc-600 dark:text-zinc-400"> (you)</span>}
                  </span>
                  {name !== member.email && (
                    <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">
                      {member.email}
                    </span>
                  )}
                </span>
              </span>
            </th>
            <td className={TABLE_CELL}>
              <Badge tone={member.role === 'member' ? 'muted' : 'neutral'}>{ROLE_LABELS[member.role]}</Badge>
            </td>
            <td className={`${TABLE_CELL} whitespace-nowrap`}>{formatDateTime(member.joined_at)}</td>
            <td className={`${TABLE_CELL} text-right whitespace-nowrap`}>
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
                    variant="danger-ghost"
                    size="sm"
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
    </DataTable>
  );
}
