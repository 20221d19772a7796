import type { Job } from '../../../../contract/jobs.ts';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { NameForm } from '../../../components/name-form.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { useCreatePreset } from '../../../queries/presets.ts';
import { PRESET_NAME_RULES } from './preset-dialogs.tsx';

/** A job's first output as the preset's sample: a picture's thumbnail, or the file itself. */
function sampleOf(job: Job): string | undefined {
  const first = job.output?.outputs[0];
  const url = first?.thumbnail_url ?? first?.url;
  return url && /^https?:\/\//.test(url) ? url : undefined;
}

/** Saves what a finished job was asked to do as a private preset of the team, its output as the sample. */
export function SavePresetDialog({ job, onClose }: { job: Job; onClose: () => void }) {
  const create = useCreatePreset();
  const preview = sampleOf(job);
  return (
    <ModalDialog
      title="Save as preset"
      description="Your team will find it on the Presets page and can use it in the playground."
      onClose={onClose}
    >
      <NameForm
        rules={PRESET_NAME_RULES}
        label="Preset name"
        submitLabel="Save preset"
        failure="The preset could not be saved."
        onSubmit={async (name) => {
          const preset = await create.mutateAsync({
            name,
            tool: job.tool,
            fragment: job.input,
            ...(preview ? { preview_url: preview } : {}),
          });
          showToast({ tone: 'success', title: `Saved preset ${preset.name}` });
          onClose();
        }}
        onCancel={onClose}
      />
    </ModalDialog>
  );
}
