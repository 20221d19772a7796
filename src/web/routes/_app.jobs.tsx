import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';

export const Route = createFileRoute('/_app/jobs')({
  component: JobsPage,
});

function JobsPage() {
  return (
    <>
      <PageHeader title="Jobs" />
      <EmptyState title="The job feed is not built yet">
        Every generation request made with your account or your keys will be listed here, with its status,
        cost and output.
      </EmptyState>
    </>
  );
}
