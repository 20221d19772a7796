import { createFileRoute } from '@tanstack/react-router';
import { EmptyState } from '../components/empty-state.tsx';
import { PageHeader } from '../components/page-header.tsx';

export const Route = createFileRoute('/_app/analytics')({
  component: AnalyticsPage,
});

function AnalyticsPage() {
  return (
    <>
      <PageHeader title="Analytics" />
      <EmptyState title="Analytics are not built yet">
        Spend over time, broken down by tool, model, folder and key, compared with the previous period.
      </EmptyState>
    </>
  );
}
