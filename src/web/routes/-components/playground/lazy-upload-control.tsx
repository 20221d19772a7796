import { type ComponentProps, lazy, Suspense } from 'react';

// Uploads (hashing, sessions, progress) load with the first field that takes a file, not with every
// visit to the playground: most models take a prompt only.
const UploadControl = lazy(() => import('./upload-control.tsx').then((m) => ({ default: m.UploadControl })));

/** The field itself shows at once; drag-and-drop and the upload button join it when their code is here. */
export function LazyUploadControl(props: ComponentProps<typeof UploadControl>) {
  return (
    <Suspense fallback={props.children}>
      <UploadControl {...props} />
    </Suspense>
  );
}
