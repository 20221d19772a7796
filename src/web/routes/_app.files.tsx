import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';

export const Route = createFileRoute('/_app/files')({
  component: FilesPage,
});

function FilesPage() {
  return (
    <>
      <PageHeader title="Files" />
      <EmptyState title="Files are not built yet">
        Your uploads and generated outputs will live here, in folders, with their lineage: the job that made
        each file and what was made from it.
      </EmptyState>
    </>
  );
}
