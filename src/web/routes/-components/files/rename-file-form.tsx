import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../../../client/api-error.ts';
import { FILE_NAME_MAX } from '../../../../contract/files.ts';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';

/** The contract's FileName rules, with messages a person can act on. */
const RenameForm = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Give the file a name.')
    .max(FILE_NAME_MAX, `At most ${FILE_NAME_MAX} characters.`)
    .refine((name) => !/[\\/\0]/.test(name), 'A name cannot contain / or \\.'),
});

export function RenameFileForm({
  name,
  onSubmit,
  onCancel,
}: {
  name: string;
  onSubmit: (name: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  const form = useForm({ resolver: zodResolver(RenameForm), defaultValues: { name } });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values.name);
    } catch (error) {
      form.setError('name', {
        message: error instanceof ApiError ? error.message : 'Renaming failed. Try again.',
      });
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-2">
      <TextField
        label="File name"
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
          Save name
        </Button>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
