import type { Template } from '../../../../contract/templates.ts';
import { cx } from '../../../components/cx.ts';

/** A template's sample picture, or a quiet panel naming its tool when it has none. */
export function TemplateSample({ template, className }: { template: Template; className?: string }) {
  if (!template.preview_url) {
    return (
      <div
        className={cx(
          'flex items-center justify-center bg-zinc-100 text-sm text-zinc-600 dark:bg-zinc-800 dark:text-zinc-400',
          className,
        )}
      >
        No sample ({template.tool})
      </div>
    );
  }
  return (
    <img
      src={template.preview_url}
      alt={`Sample of ${template.name}`}
      className={cx('bg-zinc-100 object-contain dark:bg-zinc-800', className)}
    />
  );
}
