import { createFileRoute, redirect } from '@tanstack/react-router';

/** The console opens on the Playground. */
export const Route = createFileRoute('/_app/')({
  beforeLoad: () => {
    throw redirect({ to: '/playground', replace: true });
  },
});
