import { type ComponentProps, lazy, Suspense } from 'react';
import { LoadingNote } from '../../../components/loading-note.tsx';

// Opened on demand ("From your files"): not part of the playground's first load.
const OutputPicker = lazy(() => import('./output-picker.tsx').then((m) => ({ default: m.OutputPicker })));

export function LazyOutputPicker(props: ComponentProps<typeof OutputPicker>) {
  return (
    <Suspense fallback={<LoadingNote>Loading your files…</LoadingNote>}>
      <OutputPicker {...props} />
    </Suspense>
  );
}
