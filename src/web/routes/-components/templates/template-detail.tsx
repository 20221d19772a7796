import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { Template } from '../../../../contract/templates.ts';
import { Badge } from '../../../components/badge.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { showToast } from '../../../components/toast-store.ts';
import { pluralize } from '../../../format/words.ts';
import { templateQueryOptions, useCountTemplateUse } from '../../../queries/templates.ts';
import { ResultPanel } from '../playground/result-panel.tsx';
import { RenderForm } from './render-form.tsx';
import { TemplateSample } from './template-sample.tsx';

const STATUS_NOTE = {
  pending: 'Pending approval: only your team sees it until an operator approves it.',
  rejected: 'Rejected by an operator: only your team sees it.',
  approved: null,
} as const;

/** One template: its sample and facts, its variables as a form, and the render followed live. */
export function TemplateDetail({ id }: { id: string }) {
  const { data: template } = useSuspenseQuery(templateQueryOptions(id));
  const [jobId, setJobId] = useState<string | undefined>(undefined);

  return (
    <>
      <PageHeader
        title={template.name}
        description={template.description || undefined}
        actions={
          <>
            <Link to="/templates" className={buttonClasses('secondary')}>
              All templates
            </Link>
            <UseButton template={template} />
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="flex flex-col gap-6">
          <TemplateFacts template={template} />
          <section aria-labelledby="render-heading" className="flex flex-col gap-4">
            <h2 id="render-heading" className="text-base font-semibold">
              Your values
            </h2>
            <RenderForm template={template} onCreated={(job) => setJobId(job.id)} />
          </section>
        </div>
        <ResultPanel jobId={jobId} />
      </div>
    </>
  );
}

function TemplateFacts({ template }: { template: Template }) {
  const note = STATUS_NOTE[template.status];
  return (
    <section aria-label="About this template" className="flex flex-col gap-3">
      <TemplateSample
        template={template}
        className="aspect-video w-full rounded-xl border border-zinc-200 dark:border-zinc-800"
      />
      <div className="flex flex-wrap items-center gap-1.5">
        {template.tags.map((tag) => (
          <Link key={tag} to="/templates" search={{ tag }} aria-label={`Templates tagged ${tag}`}>
            <Badge>{tag}</Badge>
          </Link>
        ))}
        <span className="ml-auto text-sm text-zinc-600 dark:text-zinc-400" data-testid="use-count">
          {pluralize(template.use_count, 'use', 'uses')} · {template.tool} ·{' '}
          {template.author ? `by ${template.author.display_name}` : 'shipped with the server'}
        </span>
      </div>
      {note && <p className="text-sm text-amber-800 dark:text-amber-300">{note}</p>}
    </section>
  );
}

/** "Use": counts a use without rendering (spec 4.8), for people who take the template's request elsewhere. */
function UseButton({ template }: { template: Template }) {
  const use = useCountTemplateUse();
  return (
    <Button
      variant="secondary"
      pending={use.isPending}
      onClick={() =>
        use.mutate(template.id, {
          onSuccess: (answer) =>
            showToast({
              tone: 'success',
              title: `Counted: ${template.name} now has ${pluralize(answer.useCount, 'use', 'uses')}.`,
            }),
          onError: () => showToast({ tone: 'error', title: 'The use was not counted. Try again.' }),
        })
      }
    >
      Use
    </Button>
  );
}
