import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ApiError } from '../../client/api-error.ts';
import { Button } from './button.tsx';
import { TextField } from './text-field.tsx';

interface NameFormProps {
  /** What a valid name is, with messages a person can act on. */
  rules: z.ZodType<string, string>;
  label: string;
  submitLabel: string;
  initial?: string;
  /** Said under the field when the request fails without the server's own message. */
  failure: string;
  onSubmit: (name: string) => Promise<unknown>;
  onCancel: () => void;
}

/** Names or renames one thing in place: the field takes focus, Escape cancels, the server's refusal shows under it. */
export function NameForm({
  rules,
  label,
  submitLabel,
  initial = '',
  failure,
  onSubmit,
  onCancel,
}: NameFormProps) {
  const schema = useMemo(() => z.object({ name: rules }), [rules]);
  const form = useForm({ resolver: zodResolver(schema), defaultValues: { name: initial } });
  const submit = form.handleSubmit(async ({ name }) => {
    try {
      await onSubmit(name);
    } catch (error) {
      form.setError('name', { message: error instanceof ApiError ? error.message : failure });
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
