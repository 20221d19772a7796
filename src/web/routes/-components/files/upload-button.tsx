import { buttonClasses } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';

/** A file picker styled as a button (the keyboard way to upload; dropping is the pointer way). */
export function UploadButton({
  onFiles,
  label = 'Upload files',
  multiple = true,
  accept,
  variant = 'primary',
}: {
  onFiles: (files: File[]) => void;
  label?: string;
  multiple?: boolean;
  accept?: string;
  variant?: 'primary' | 'secondary';
}) {
  return (
    <label
      className={cx(
        buttonClasses(variant, variant === 'primary' ? 'md' : 'sm'),
        'cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600',
      )}
    >
      <input
        type="file"
        multiple={multiple}
        accept={accept}
        className="sr-only"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      {label}
    </label>
  );
}
