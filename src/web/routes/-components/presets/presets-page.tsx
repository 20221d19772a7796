import { useQuery, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Preset } from '../../../../contract/presets.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { pluralize } from '../../../format/words.ts';
import { type PresetBrowseFilter, presetBrowseQueryOptions } from '../../../queries/presets.ts';
import { pricingQueryOptions } from '../../../queries/pricing.ts';
import { PresetCard } from './preset-card.tsx';
import { DeletePresetDialog, RenamePresetDialog } from './preset-dialogs.tsx';
import { PresetFilterBar } from './preset-filter-bar.tsx';
import { presetRunsHere } from './preset-runs-here.ts';

type OpenDialog = { kind: 'rename' | 'delete'; preset: Preset } | null;

/** The preset browser: filters in the URL, samples in place, and the team's own presets to rename or delete. */
export function PresetsPage({ filter }: { filter: PresetBrowseFilter }) {
  const presets = useSuspenseInfiniteQuery(presetBrowseQueryOptions(filter));
  // What runs here is marked once the price catalog is in (the server already lists those first).
  const pricing = useQuery(pricingQueryOptions());
  const [open, setOpen] = useState<OpenDialog>(null);
  const shown = presets.data.pages.flatMap((page) => page.data);
  const filtered = Boolean(filter.type || filter.namespace || filter.metadata?.length || filter.q);

  return (
    <>
      <PageHeader
        title="Presets"
        description="Voices, image styles and your team's saved inputs. What runs on this server comes first: listen to or look at a sample, then use it in the playground. Save one of your own from a finished job."
      />
      <PresetFilterBar />
      {shown.length === 0 ? (
        <EmptyState title={filtered ? 'No preset matches' : 'No presets'}>
          {filtered
            ? 'Try another type or namespace, or remove a metadata filter.'
            : 'This server offers no presets yet.'}
        </EmptyState>
      ) : (
        <>
          <p role="status" className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
            {presets.hasNextPage
              ? `The first ${shown.length} presets`
              : pluralize(shown.length, 'preset', 'presets')}
          </p>
          <ul aria-label="Presets" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {shown.map((preset) => (
              <li key={preset.id} className="flex">
                <PresetCard
                  preset={preset}
                  picked={filter.metadata}
                  runsHere={pricing.data ? presetRunsHere(preset, pricing.data.data) : undefined}
                  onRename={() => setOpen({ kind: 'rename', preset })}
                  onDelete={() => setOpen({ kind: 'delete', preset })}
                />
              </li>
            ))}
          </ul>
          {presets.isFetchNextPageError && (
            <Alert tone="error" title="More presets could not be loaded">
              {presets.error?.message} Show more tries again.
            </Alert>
          )}
          {presets.hasNextPage && (
            <div className="mt-6 flex justify-center">
              <Button
                variant="secondary"
                pending={presets.isFetchingNextPage}
                onClick={() => void presets.fetchNextPage()}
              >
                Show more
              </Button>
            </div>
          )}
        </>
      )}
      {open?.kind === 'rename' && <RenamePresetDialog preset={open.preset} onClose={() => setOpen(null)} />}
      {open?.kind === 'delete' && <DeletePresetDialog preset={open.preset} onClose={() => setOpen(null)} />}
    </>
  );
}
