import { type ComponentProps, lazy, Suspense } from 'react';
import { Spinner } from '../../../components/spinner.tsx';

// Opened on demand ("From your files"): not part of the playground's first load.
const OutputPicker = lazy(() => import('./output-picker.tsx').then((m) => ({ default: m.OutputPicker })));

export function LazyOutputPicker(props: ComponentProps<typeof OutputPicker>) {
  return (
    <Suspense
      fallback={
        <p role="status" className="flex items-center gap-2 text-sm text-zinc-600 dark:text-zinc-400">
          <Spinner /> Loading your files…
        </p>
      }
    >
      <OutputPicker {...props} />
    </Suspense>
  );
}
