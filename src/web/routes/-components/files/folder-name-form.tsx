import { z } from 'zod';
import { FOLDER_NAME_MAX } from '../../../../contract/folders.ts';
import { NameForm } from '../../../components/name-form.tsx';

const FolderName = z
  .string()
  .trim()
  .min(1, 'Give the folder a name.')
  .max(FOLDER_NAME_MAX, `At most ${FOLDER_NAME_MAX} characters.`);

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
  return (
    <NameForm
      rules={FolderName}
      label={label}
      submitLabel={submitLabel}
      initial={initial}
      failure="That did not work. Try again."
      onSubmit={onSubmit}
      onCancel={onCancel}
    />
  );
}
