import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';

export const Route = createFileRoute('/_app/keys')({
  component: KeysPage,
});

function KeysPage() {
  return (
    <>
      <PageHeader title="Keys" />
      <EmptyState title="Key management is not built yet">
        You will create, reveal, share and revoke the API keys of your account and your team here.
      </EmptyState>
    </>
  );
}
