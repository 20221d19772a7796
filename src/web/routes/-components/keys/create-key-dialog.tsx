import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod';
import { API_KEY_NAME_MAX, type CreatedApiKey } from '../../../../contract/api-keys.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useCreateApiKey } from '../../../queries/api-keys.ts';
import { RestrictionsSchema, restrictionDefaults, setRestrictions } from './key-restrictions-form.ts';
import { NewSecretDialog } from './new-secret-dialog.tsx';
import { RestrictionFields } from './restriction-fields.tsx';

const CreateKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: 'Give the key a name.' })
    .max(API_KEY_NAME_MAX, { message: `A key name has at most ${API_KEY_NAME_MAX} characters.` }),
  revealable: z.boolean(),
  owner: z.enum(['me', 'team']),
  restrictions: RestrictionsSchema,
});

type Created = z.infer<typeof CreatedApiKey>;

/**
 * Names a new key, chooses whether it can be shown again, who owns it (owners and managers may make a
 * service key of the team) and, optionally, its restrictions; then shows it, this once.
 */
export function CreateKeyDialog({
  onClose,
  canMakeServiceKey = false,
}: {
  onClose: () => void;
  canMakeServiceKey?: boolean;
}) {
  const [created, setCreated] = useState<Created | null>(null);
  if (created) return <NewKeyShown created={created} onClose={onClose} />;
  return (
    <CreateKeyFormDialog onCreated={setCreated} onClose={onClose} canMakeServiceKey={canMakeServiceKey} />
  );
}

function CreateKeyFormDialog({
  onCreated,
  onClose,
  canMakeServiceKey,
}: {
  onCreated: (created: Created) => void;
  onClose: () => void;
  canMakeServiceKey: boolean;
}) {
  const formId = useId();
  const revealableHintId = useId();
  const create = useCreateApiKey();
  const form = useForm({
    resolver: zodResolver(CreateKeySchema),
    defaultValues: { name: '', revealable: false, owner: 'me' as const, restrictions: restrictionDefaults() },
  });
  const onSubmit = form.handleSubmit(async ({ restrictions, owner, ...values }) => {
    try {
      // Only what is set is sent: the rest are the server's defaults (no restriction, the caller's key).
      onCreated(
        await create.mutateAsync({
          ...values,
          ...setRestrictions(restrictions),
          ...(owner === 'team' ? { owner } : {}),
        }),
      );
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <ModalDialog
      title="Create an API key"
      description="The key acts for your team: its jobs are paid from the team's credits."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} pending={isSubmitting}>
            Create key
          </Button>
        </>
      }
    >
      <FormProvider {...form}>
        <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
          <TextField
            label="Name"
            autoComplete="off"
            maxLength={API_KEY_NAME_MAX}
            hint="Where the key is used, for example “CI” or “Laptop”."
            error={errors.name?.message}
            data-autofocus
            {...form.register('name')}
          />
          <div className="flex gap-3">
            <input
              id={`${formId}-revealable`}
              type="checkbox"
              aria-describedby={revealableHintId}
              className="mt-0.5 size-4 shrink-0 rounded border-zinc-300 accent-zinc-900 dark:border-zinc-600 dark:accent-zinc-100"
              {...form.register('revealable')}
            />
            <div className="text-sm">
              <label
                htmlFor={`${formId}-revealable`}
                className="font-medium text-zinc-800 dark:text-zinc-200"
              >
                Can be shown again (revealable)
              </label>
              <div id={revealableHintId} className="mt-1 space-y-1 text-zinc-600 dark:text-zinc-400">
                <p>
                  A revealable key can be shown again later by you, your team's managers and the people you
                  share it with; every reveal is logged. To make that possible the server keeps it encrypted
                  rather than only as a one-way hash.
                </p>
                <p>
                  Leave this off for a key that only a machine needs: it is shown once, now, and never again.
                </p>
              </div>
            </div>
          </div>
          {canMakeServiceKey && (
            <fieldset className="flex flex-col gap-2 text-sm">
              <legend className="font-medium text-zinc-800 dark:text-zinc-200">Belongs to</legend>
              <label className="flex gap-3">
                <input
                  type="radio"
                  value="me"
                  className="mt-0.5 size-4 accent-zinc-900 dark:accent-zinc-100"
                  {...form.register('owner')}
                />
                <span className="text-zinc-800 dark:text-zinc-200">Me</span>
              </label>
              <label className="flex gap-3">
                <input
                  type="radio"
                  value="team"
                  className="mt-0.5 size-4 accent-zinc-900 dark:accent-zinc-100"
                  {...form.register('owner')}
                />
                <span>
                  <span className="text-zinc-800 dark:text-zinc-200">The team (service key)</span>
                  <span className="block text-zinc-600 dark:text-zinc-400">
                    Belongs to no person: it keeps working when whoever made it leaves the team, and its runs
                    are counted under the key.
                  </span>
                </span>
              </label>
            </fieldset>
          )}
          <details className="group rounded-lg border border-zinc-200 p-3 dark:border-zinc-800">
            <summary className="cursor-pointer text-sm font-medium text-zinc-800 dark:text-zinc-200">
              Restrictions (optional)
            </summary>
            <div className="mt-4">
              <RestrictionFields />
            </div>
          </details>
          {create.error && <Alert tone="error">{errorMessage(create.error)}</Alert>}
        </form>
      </FormProvider>
    </ModalDialog>
  );
}

function NewKeyShown({ created, onClose }: { created: Created; onClose: () => void }) {
  return (
    <NewSecretDialog
      title={`Your new key “${created.key.name}”`}
      revealable={created.key.revealable}
      note={
        created.key.revealable
          ? 'This key is revealable: you can show it again from the Keys page, and each time is logged.'
          : 'Only a hash of this key is kept. If you lose it, revoke it and create another.'
      }
      secret={created.api_key}
      onClose={onClose}
    >
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Send it as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code>. Keep it out of source
        code and URLs.
      </p>
    </NewSecretDialog>
  );
}
