import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { pluralize } from '../../../format/words.ts';
import { type TemplateFilter, templatesQueryOptions } from '../../../queries/templates.ts';
import { PublishTemplateDialog } from './publish-template-dialog.tsx';
import { TemplateCard } from './template-card.tsx';
import { TemplateFilterBar } from './template-filter-bar.tsx';

/** The template gallery: approved templates by tag and text (or the team's own), each with its sample. */
export function TemplatesPage({ filter }: { filter: TemplateFilter }) {
  const templates = useSuspenseInfiniteQuery(templatesQueryOptions(filter));
  const [publishing, setPublishing] = useState(false);
  const shown = templates.data.pages.flatMap((page) => page.data);
  const filtered = Boolean(filter.tag || filter.q);

  return (
    <>
      <PageHeader
        title="Templates"
        description="Ready-made renders with a few blanks to fill: open one, put in your own text and media, and render it. Publish your own for everyone once an operator approves it."
        actions={<Button onClick={() => setPublishing(true)}>Publish a template</Button>}
      />
      <TemplateFilterBar />
      {shown.length === 0 ? (
        <EmptyState
          title={
            filter.mine
              ? 'Your team has published no template'
              : filtered
                ? 'No template matches'
                : 'No templates'
          }
        >
          {filter.mine
            ? 'Publish one with the button above: it waits for approval, and your team can render it meanwhile.'
            : filtered
              ? 'Try another tag or fewer words.'
              : 'This server offers no templates yet.'}
        </EmptyState>
      ) : (
        <>
          <p role="status" className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
            {templates.hasNextPage
              ? `The first ${shown.length} templates`
              : pluralize(shown.length, 'template', 'templates')}
          </p>
          <ul aria-label="Templates" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {shown.map((template) => (
              <li key={template.id} className="flex">
                <TemplateCard template={template} showStatus={Boolean(filter.mine)} />
              </li>
            ))}
          </ul>
          {templates.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <Button
                variant="secondary"
                pending={templates.isFetchingNextPage}
                onClick={() => void templates.fetchNextPage()}
              >
                Show more
              </Button>
            </div>
          )}
        </>
      )}
      {publishing && <PublishTemplateDialog onClose={() => setPublishing(false)} />}
    </>
  );
}
