import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod';
import { API_KEY_NAME_MAX, type ApiKey } from '../../../../contract/api-keys.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { useUpdateApiKey } from '../../../queries/api-keys.ts';
import { RestrictionsSchema, restrictionBody, restrictionDefaults } from './key-restrictions-form.ts';
import { RestrictionFields } from './restriction-fields.tsx';

const EditKeySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, { message: 'Give the key a name.' })
    .max(API_KEY_NAME_MAX, { message: `A key name has at most ${API_KEY_NAME_MAX} characters.` }),
  restrictions: RestrictionsSchema,
});

/** Renames a key and changes its expiry and restrictions; they apply from the key's next request. */
export function EditKeyDialog({ apiKey, onClose }: { apiKey: ApiKey; onClose: () => void }) {
  const formId = useId();
  const update = useUpdateApiKey(apiKey.id);
  const form = useForm({
    resolver: zodResolver(EditKeySchema),
    defaultValues: { name: apiKey.name, restrictions: restrictionDefaults(apiKey) },
  });
  const onSubmit = form.handleSubmit(async ({ name, restrictions }) => {
    try {
      // Every field is sent: an emptied one lifts its restriction (null).
      await update.mutateAsync({ name, ...restrictionBody(restrictions) });
      showToast({ title: `Key “${name}” saved`, tone: 'success' });
      onClose();
    } catch {
      // Shown below from the mutation's error.
    }
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <ModalDialog
      title={`Edit “${apiKey.name}”`}
      description="Changes apply from the key's next request."
      onClose={onClose}
      size="lg"
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} pending={isSubmitting}>
            Save
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
            error={errors.name?.message}
            data-autofocus
            {...form.register('name')}
          />
          <RestrictionFields />
          {update.error && <Alert tone="error">{errorMessage(update.error)}</Alert>}
        </form>
      </FormProvider>
    </ModalDialog>
  );
}
