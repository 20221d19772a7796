import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { TeamRole } from '../../../../contract/account.ts';
import type { TeamMember } from '../../../../contract/team.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { useChangeMemberRole } from '../../../queries/team.ts';
import { personName } from '../keys/person-name.ts';
import { RoleChoice } from './role-choice.tsx';
import { ROLE_LABELS } from './team-permissions.ts';

const ChangeRoleSchema = z.object({ role: TeamRole });

/** Picks another role for a member and confirms it in the same step (the button names the change). */
export function ChangeRoleDialog({
  member,
  roles,
  onClose,
}: {
  member: TeamMember;
  roles: readonly TeamRole[];
  onClose: () => void;
}) {
  const formId = useId();
  const change = useChangeMemberRole();
  const form = useForm({ resolver: zodResolver(ChangeRoleSchema), defaultValues: { role: member.role } });
  const role = useWatch({ control: form.control, name: 'role' });
  const name = personName(member);
  const onSubmit = form.handleSubmit(({ role: next }) =>
    change.mutate(
      { userId: member.user_id, role: next },
      {
        onSuccess: () => {
          showToast({ title: `${name} is now ${ROLE_LABELS[next].toLowerCase()}`, tone: 'success' });
          onClose();
        },
      },
    ),
  );
  const unchanged = role === member.role;
  return (
    <ModalDialog
      title={`Change the role of ${name}`}
      description={`Now ${ROLE_LABELS[member.role].toLowerCase()}.`}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} pending={change.isPending} disabled={unchanged}>
            {unchanged ? 'Change role' : `Make ${ROLE_LABELS[role].toLowerCase()}`}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <RoleChoice legend="New role" roles={roles} register={form.register('role')} />
        {change.error && <Alert tone="error">{errorMessage(change.error)}</Alert>}
      </form>
    </ModalDialog>
  );
}
