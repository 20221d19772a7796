import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Email } from '../../../../contract/common.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { fieldMessage } from '../../../components/field-message.ts';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useInviteTeamMember } from '../../../queries/team.ts';
import { RoleChoice } from './role-choice.tsx';

/** The contract's own email rule, so the console refuses exactly what the server would. */
const InviteSchema = z.object({ email: Email, role: z.enum(['manager', 'member']) });

/** Invites someone by email with a role; they join at their next sign-in with that address. */
export function InviteDialog({ teamName, onClose }: { teamName: string; onClose: () => void }) {
  const formId = useId();
  const invite = useInviteTeamMember();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(InviteSchema),
    defaultValues: { email: '', role: 'member' as const },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    setSentTo(null);
    try {
      const invitation = await invite.mutateAsync(values);
      setSentTo(invitation.email);
      form.reset({ email: '', role: values.role });
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const { errors } = form.formState;
  return (
    <ModalDialog
      title={`Invite to ${teamName}`}
      description="We email them; they join with this role the next time they sign in with that address."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {sentTo ? 'Done' : 'Cancel'}
          </Button>
          <Button type="submit" form={formId} pending={invite.isPending}>
            Send invitation
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <TextField
          label="Email"
          type="email"
          autoComplete="off"
          spellCheck={false}
          error={fieldMessage('Email', errors.email?.message)}
          data-autofocus
          {...form.register('email')}
        />
        <RoleChoice legend="Role" roles={['member', 'manager']} register={form.register('role')} />
        {sentTo && <Alert tone="success">Invitation sent to {sentTo}.</Alert>}
        {invite.error && <Alert tone="error">{errorMessage(invite.error)}</Alert>}
      </form>
    </ModalDialog>
  );
}
