import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import type { Template } from '../../../../contract/templates.ts';
import { Badge } from '../../../components/badge.tsx';
import { pluralize } from '../../../format/words.ts';
import { TemplateSample } from './template-sample.tsx';

const STATUS_LABEL = { pending: 'Pending approval', approved: 'Approved', rejected: 'Rejected' } as const;

/** One template in the gallery: its sample, name, tags and how often it was used; opens its page. */
export function TemplateCard({ template, showStatus }: { template: Template; showStatus: boolean }) {
  const headingId = useId();
  return (
    <article
      aria-labelledby={headingId}
      className="flex w-full flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
    >
      <TemplateSample template={template} className="aspect-video w-full" />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <h2 id={headingId} className="text-base font-semibold">
          <Link
            to="/templates/$templateId"
            params={{ templateId: template.id }}
            className="hover:underline focus-visible:underline"
          >
            {template.name}
          </Link>
        </h2>
        {template.description && (
          <p className="line-clamp-3 text-sm text-zinc-600 dark:text-zinc-400">{template.description}</p>
        )}
        <div className="mt-auto flex flex-wrap items-center gap-1.5 pt-2">
          {showStatus && (
            <Badge tone={template.status === 'approved' ? 'success' : 'muted'}>
              {STATUS_LABEL[template.status]}
            </Badge>
          )}
          {template.tags.map((tag) => (
            <Badge key={tag}>{tag}</Badge>
          ))}
          <span className="ml-auto text-xs text-zinc-600 dark:text-zinc-400">
            {pluralize(template.use_count, 'use', 'uses')}
          </span>
        </div>
      </div>
    </article>
  );
}
