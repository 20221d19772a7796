import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsPerformance } from '../../../../contract/analytics-performance.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import type { RunEstimate, RunTime } from '../../../../contract/run-times.ts';
import { catalogSchema } from '../../../schema-form/testing/catalog-schemas.ts';
import { analyticsMeta } from '../../../testing/analytics-meta.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { useModelFigures } from './model-figures.ts';
import { ModelPicker } from './model-picker.tsx';
import { RunForm } from './run-form.tsx';

function offer(model: string, tool: 'image' | 'video', unit: 'image' | 'second'): PriceCatalogEntry {
  return {
    model,
    tool,
    display_name: model,
    description: '',
    available: true,
    providers: [
      {
        provider: 'local',
        model_key: `local:${model}`,
        pricing_id: `price_${model}`,
        user_price_estimate_cents: 5,
        unit,
        unit_price_cents: 1,
        available: true,
        unavailable_reason: null,
      },
    ],
  };
}

const SKETCH = offer('local-sketch', 'image', 'image');
const MOTION = offer('local-motion', 'video', 'second');

const measured = (p50_ms: number, p90_ms: number, scaled_to_seconds: number | null = null): RunEstimate => ({
  basis: 'measured',
  p50_ms,
  p90_ms,
  runs: 20,
  scaled_to_seconds,
});

/**
 * A server that measured `local-sketch` at 18–25 s a run, and `local-motion` at 1–1.5 s per second of video
 * (its answer scaled by the `duration` asked); its analytics count created to completed, queue included.
 */
function server() {
  return stubFetch({
    'GET /v2/me': () => json({ balance_cents: 1000 }),
    'GET /v2/presets': () => json({ data: [], next_cursor: null }),
    'GET /v2/run-times': ({ url }) => {
      const duration = url.searchParams.get('duration');
      const seconds = duration === null ? null : Number(duration);
      const data: RunTime[] = [
        { model: 'local-sketch', provider: 'local', estimate: measured(18_200, 24_600) },
        {
          model: 'local-motion',
          provider: 'local',
          estimate:
            seconds === null ? measured(5_000, 7_500) : measured(seconds * 1_000, seconds * 1_500, seconds),
        },
      ];
      return json({ data });
    },
    'GET /v2/analytics/performance': () =>
      json({
        data: [
          {
            model: 'local-sketch',
            provider: 'local',
            jobs: 20,
            completed: 20,
            failed: 0,
            cancelled: 0,
            failure_rate: 0,
            total: { samples: 20, p50_ms: 31_000, p90_ms: 52_000, p99_ms: 60_000 },
            phases: { queued: null, provider_queue: null, provider_run: null, downloading: null },
            top_errors: [],
          },
        ],
        meta: { ...analyticsMeta(), percentiles: 'exact' },
      } satisfies AnalyticsPerformance),
  });
}

/** The playground's two places that say how long a run takes, side by side, for one model. */
function PickerAndForm({ entry, schema }: { entry: PriceCatalogEntry; schema: string }) {
  const figures = useModelFigures([entry], { model: entry.model, provider: null });
  return (
    <>
      <ModelPicker models={[entry]} selected={entry} onSelect={vi.fn()} figures={figures} />
      <Suspense fallback="loading">
        <RunForm
          tool={entry.tool}
          model={entry.model}
          baseModel={entry.model}
          pinned={null}
          entry={entry}
          inputSchema={catalogSchema(schema)}
          onCreated={vi.fn()}
          onSwitchModel={vi.fn()}
        />
      </Suspense>
    </>
  );
}

describe('how long a run takes, before Run', () => {
  it('is said the same by the picker and the form for the same measured model', async () => {
    server();
    renderWithQuery(<PickerAndForm entry={SKETCH} schema="image/local-sketch" />);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'a kite');
    const picker = screen.getByRole('button', { name: /local-sketch/ });
    expect(await within(picker).findByText('usually 18–25 s here · 0% failed')).toBeVisible();
    expect(await screen.findByTestId('run-time-estimate')).toHaveTextContent(
      'Run time: usually 18–25 s here',
    );
    // The team's created-to-completed figures (queue included) are not what a run takes.
    expect(screen.queryByText(/31–52 s/)).toBeNull();
  });

  it('scales with the length the form asks for, as the job will be estimated', async () => {
    const api = server();
    renderWithQuery(<PickerAndForm entry={MOTION} schema="video/local-motion" />);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'waves');
    // No length asked: the runs as they took, in both places.
    expect(await screen.findByTestId('run-time-estimate')).toHaveTextContent('usually 5.0–7.5 s here');
    expect(screen.getByTestId('model-figures')).toHaveTextContent('usually 5.0–7.5 s here');
    await userEvent.type(screen.getByRole('textbox', { name: 'Duration' }), '20');
    await waitFor(() =>
      expect(screen.getByTestId('run-time-estimate')).toHaveTextContent('Run time: usually 20–30 s here'),
    );
    expect(
      api.callsTo('GET /v2/run-times').some((call) => call.url.searchParams.get('duration') === '20'),
    ).toBe(true);
  });

  it("words the catalog's time as typical, never as measured here", async () => {
    stubFetch({
      'GET /v2/me': () => json({ balance_cents: 1000 }),
      'GET /v2/presets': () => json({ data: [], next_cursor: null }),
      'GET /v2/run-times': () =>
        json({
          data: [
            {
              model: 'local-sketch',
              provider: 'local',
              estimate: { basis: 'typical', p50_ms: 1_000, p90_ms: 1_000, runs: 2, scaled_to_seconds: null },
            },
          ],
        }),
    });
    renderWithQuery(<PickerAndForm entry={SKETCH} schema="image/local-sketch" />);
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'a kite');
    expect(await screen.findByTestId('run-time-estimate')).toHaveTextContent(
      'Run time: about 1 s (typical for this model)',
    );
    expect(screen.getByTestId('model-figures')).toHaveTextContent('about 1 s (typical for this model)');
    expect(screen.queryByText(/usually/)).toBeNull();
  });
});
