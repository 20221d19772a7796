import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../../../client/api-error.ts';
import { FOLDER_NAME_MAX } from '../../../../contract/folders.ts';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';

const FolderNameForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the folder a name.')
    .max(FOLDER_NAME_MAX, `At most ${FOLDER_NAME_MAX} characters.`),
});

/** Names a folder (create or rename); the server's refusal shows under the field. */
export function FolderNameFields({
  label,
  submitLabel,
  initial = '',
  onSubmit,
  onCancel,
}: {
  label: string;
  submitLabel: string;
  initial?: string;
  onSubmit: (name: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const form = useForm({ resolver: zodResolver(FolderNameForm), defaultValues: { name: initial } });
  const submit = form.handleSubmit(async ({ name }) => {
    try {
      await onSubmit(name);
    } catch (error) {
      form.setError('name', {
        message: error instanceof ApiError ? error.message : 'That did not work. Try again.',
      });
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-2" noValidate>
      <TextField
        label={label}
        autoFocus
        autoComplete="off"
        error={form.formState.errors.name?.message}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
        {...form.register('name')}
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" pending={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
