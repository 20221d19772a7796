import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TeamRole } from '../../../../contract/account.ts';
import type { TeamMember } from '../../../../contract/team.ts';
import { MembersTable } from './members-table.tsx';

const person = (n: number, role: TeamRole, name: string): TeamMember => ({
  user_id: `00000000-0000-4000-8000-00000000000${n}`,
  email: `${name.toLowerCase()}@example.com`,
  display_name: name,
  avatar_url: null,
  role,
  joined_at: '2026-11-01T09:00:00.000Z',
});

const owner = person(1, 'owner', 'Olga');
const manager = person(2, 'manager', 'Max');
const member = person(3, 'member', 'Mia');
const members = [owner, manager, member];

function buttons(as: TeamMember) {
  render(
    <MembersTable
      members={members}
      actor={{ role: as.role, userId: as.user_id, personalTeam: false }}
      onAction={vi.fn()}
    />,
  );
  return Object.fromEntries(
    members.map((m) => [
      m.display_name,
      within(screen.getByRole('row', { name: new RegExp(`^${m.display_name}`) }))
        .queryAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ]),
  );
}

describe('members table', () => {
  it('shows a member no button but the one to leave', () => {
    expect(buttons(member)).toEqual({ Olga: [], Max: [], Mia: ['Leave team'] });
  });

  it('lets a manager manage members and managers, not owners', () => {
    expect(buttons(manager)).toEqual({
      Olga: [],
      Max: ['Leave team'],
      Mia: ['Change role of Mia', 'Remove Mia'],
    });
  });

  it('lets an owner manage everyone else', () => {
    expect(buttons(owner)).toEqual({
      Olga: ['Leave team'],
      Max: ['Change role of Max', 'Remove Max'],
      Mia: ['Change role of Mia', 'Remove Mia'],
    });
  });
});
