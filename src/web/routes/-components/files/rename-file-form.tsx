import { z } from 'zod';
import { FILE_NAME_MAX } from '../../../../contract/values.ts';
import { NameForm } from '../../../components/name-form.tsx';

/** The contract's FileName rules, with messages a person can act on. */
const FileName = z
  .string()
  .trim()
  .min(1, 'Give the file a name.')
  .max(FILE_NAME_MAX, `At most ${FILE_NAME_MAX} characters.`)
  .refine((name) => !/[\\/\0]/.test(name), 'A name cannot contain / or \\.');

export function RenameFileForm({
  name,
  onSubmit,
  onCancel,
}: {
  name: string;
  onSubmit: (name: string) => Promise<unknown>;
  onCancel: () => void;
}) {
  return (
    <NameForm
      rules={FileName}
      label="File name"
      submitLabel="Save name"
      initial={name}
      failure="Renaming failed. Try again."
      onSubmit={onSubmit}
      onCancel={onCancel}
    />
  );
}
