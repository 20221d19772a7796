import { z } from 'zod';
import type { Preset } from '../../../../contract/presets.ts';
import { PRESET_NAME_MAX } from '../../../../contract/values.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { NameForm } from '../../../components/name-form.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { useDeletePreset, useRenamePreset } from '../../../queries/presets.ts';

export const PRESET_NAME_RULES = z
  .string()
  .trim()
  .min(1, 'Give the preset a name.')
  .max(PRESET_NAME_MAX, `At most ${PRESET_NAME_MAX} characters.`);

export function RenamePresetDialog({ preset, onClose }: { preset: Preset; onClose: () => void }) {
  const rename = useRenamePreset();
  return (
    <ModalDialog title={`Rename ${preset.name}`} onClose={onClose}>
      <NameForm
        rules={PRESET_NAME_RULES}
        label="Name"
        submitLabel="Rename"
        initial={preset.name}
        failure="The preset could not be renamed."
        onSubmit={async (name) => {
          await rename.mutateAsync({ id: preset.id, name });
          onClose();
        }}
        onCancel={onClose}
      />
    </ModalDialog>
  );
}

export function DeletePresetDialog({ preset, onClose }: { preset: Preset; onClose: () => void }) {
  const remove = useDeletePreset();
  return (
    <ConfirmDialog
      title={`Delete ${preset.name}?`}
      confirmLabel="Delete preset"
      danger
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() =>
        remove.mutate(preset.id, {
          onSuccess: () => {
            showToast({ tone: 'success', title: `Deleted ${preset.name}` });
            onClose();
          },
        })
      }
      onClose={onClose}
    >
      <p>Your team will no longer see it. Jobs already run with it keep their input.</p>
    </ConfirmDialog>
  );
}
