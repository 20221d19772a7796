import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsPerformance, LatencyPercentiles } from '../../../../contract/analytics-performance.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import type { RunTime } from '../../../../contract/run-times.ts';
import { analyticsMeta } from '../../../testing/analytics-meta.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { useModelFigures } from './model-figures.ts';
import { ModelPicker } from './model-picker.tsx';

function entry(model: string, display_name: string, available = true, provider = 'local'): PriceCatalogEntry {
  return {
    model,
    tool: 'image',
    display_name,
    description: `${display_name}, for tests`,
    available,
    providers: [
      {
        provider,
        model_key: `${provider}:${model}`,
        pricing_id: `price_${model}`,
        user_price_estimate_cents: 1,
        unit: 'image',
        unit_price_cents: 1,
        available,
        unavailable_reason: available
          ? null
          : `Set ${provider.toUpperCase()}_KEY on the server to enable ${provider}.`,
      },
    ],
  };
}

const MODELS = [entry('local-sketch', 'Local sketch'), entry('local-upscale', 'Local upscale')];

/** The picker as the playground page feeds it: the run times and failure rates from one query each. */
function MeasuredPicker() {
  return (
    <ModelPicker
      models={MODELS}
      selected={MODELS[0]}
      onSelect={vi.fn()}
      figures={useModelFigures(MODELS, { model: 'local-sketch', provider: null })}
    />
  );
}

describe('the model picker', () => {
  it('hides retired models and says when a deprecated one retires, and what to use instead', async () => {
    Element.prototype.scrollIntoView = vi.fn();
    const lifecycle = (status: 'deprecated' | 'retired', day: string, replacement: string) => ({
      status,
      retires_on: status === 'deprecated' ? day : null,
      retired_on: status === 'retired' ? day : null,
      replacement,
      note: null,
    });
    const deprecatedModel = {
      ...entry('tts-old', 'Old speech'),
      lifecycle: lifecycle('deprecated', '2027-01-06', 'tts-new'),
    };
    const retiredModel = {
      ...entry('img-gone', 'Gone image', false),
      lifecycle: lifecycle('retired', '2026-10-23', 'img-new'),
    };
    render(
      <ModelPicker
        models={[MODELS[0]!, deprecatedModel, retiredModel]}
        selected={deprecatedModel}
        onSelect={vi.fn()}
      />,
    );
    const button = screen.getByRole('button', { name: /Old speech/ });
    expect(button).toHaveTextContent('Retiring on 2027-01-06 · use tts-new');
    await userEvent.click(button);
    const list = await screen.findByRole('listbox', { name: 'Models' });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining('Local sketch'),
      expect.stringContaining('Retiring on 2027-01-06'),
    ]);
    expect(list).not.toHaveTextContent('Gone image');
  });

  it('shows the chosen model at once; its list (loaded when opened) searches, chooses by keyboard and closes', async () => {
    // The list keeps its active option in view; jsdom lays nothing out.
    Element.prototype.scrollIntoView = vi.fn();
    const onSelect = vi.fn();
    render(<ModelPicker models={MODELS} selected={MODELS[0]} onSelect={onSelect} />);
    const button = screen.getByRole('button', { name: /^Model: ?Local sketch/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(button);
    const search = await screen.findByRole('combobox', { name: 'Search models' });
    expect(search).toHaveFocus();
    expect(within(screen.getByRole('listbox', { name: 'Models' })).getAllByRole('option')).toHaveLength(2);

    await userEvent.type(search, 'upscale');
    const options = within(screen.getByRole('listbox', { name: 'Models' })).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([expect.stringContaining('Local upscale')]);
    await userEvent.keyboard('{Enter}');
    expect(onSelect).toHaveBeenCalledWith('local-upscale');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(button).toHaveFocus();

    // Opened again it starts over, on the chosen model; Escape closes it and gives the button the focus.
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('combobox', { name: 'Search models' })).toHaveValue('');
    expect(screen.getByRole('option', { selected: true })).toHaveTextContent('Local sketch');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(button).toHaveFocus();
  });

  it('lists the models that run here; the others wait behind a toggle that counts them, worded for users', async () => {
    Element.prototype.scrollIntoView = vi.fn();
    const models = [
      entry('local-sketch', 'Local sketch'),
      entry('flux-pro', 'FLUX pro', false, 'fal'),
      entry('flux-dev', 'FLUX dev', false, 'fal'),
      entry('local-upscale', 'Local upscale'),
      entry('sdxl', 'SDXL', false, 'replicate'),
    ];
    render(<ModelPicker models={models} selected={models[0]} onSelect={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: /Local sketch/ }));
    const list = await screen.findByRole('listbox', { name: 'Models' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([expect.stringContaining('Local sketch'), expect.stringContaining('Local upscale')]);
    // Operators' words (which key to set) are for the start-up log, never the console.
    expect(document.body).not.toHaveTextContent(/_KEY|Set .* on the server/);

    const toggle = screen.getByRole('checkbox', { name: 'Show 3 models not enabled on this server' });
    await userEvent.click(toggle);
    const options = within(list).getAllByRole('option');
    expect(options).toHaveLength(5);
    for (const option of options.slice(2)) expect(option).toHaveTextContent('Not enabled on this server');
    expect(document.body).not.toHaveTextContent(/_KEY|Set .* on the server/);

    // A search counts what it leaves behind the toggle.
    await userEvent.click(toggle);
    await userEvent.type(screen.getByRole('combobox', { name: 'Search models' }), 'flux');
    expect(within(list).queryAllByRole('option')).toHaveLength(0);
    expect(list).toHaveTextContent('No model enabled on this server matches “flux”.');
    expect(
      screen.getByRole('checkbox', { name: 'Show 2 models not enabled on this server' }),
    ).not.toBeChecked();
  });

  it('names a chosen model that cannot run here as not enabled on this server, and lists the others with it', async () => {
    Element.prototype.scrollIntoView = vi.fn();
    const fal = entry('flux-pro', 'FLUX pro', false, 'fal');
    render(<ModelPicker models={[MODELS[0]!, fal]} selected={fal} onSelect={vi.fn()} />);
    const button = screen.getByRole('button', { name: /FLUX pro/ });
    expect(button).toHaveTextContent('Not enabled on this server');
    await userEvent.click(button);
    const list = await screen.findByRole('listbox', { name: 'Models' });
    expect(within(list).getAllByRole('option')).toHaveLength(2);
    expect(screen.getByRole('checkbox', { name: /not enabled on this server/ })).toBeChecked();
    expect(document.body).not.toHaveTextContent('FAL_KEY');
  });

  it('says how long each model runs by the server’s rule, and how often it failed here, from one request each', async () => {
    Element.prototype.scrollIntoView = vi.fn();
    const total = (p50: number, p90: number): LatencyPercentiles => ({
      samples: 10,
      p50_ms: p50,
      p90_ms: p90,
      p99_ms: p90,
    });
    const row = (model: string, provider: string, completed: number, failed: number) => ({
      model,
      provider,
      jobs: completed + failed,
      completed,
      failed,
      cancelled: 0,
      failure_rate: failed / (completed + failed),
      // Created to completed, queue included: not what a run takes, and never shown as that.
      total: total(60_000, 90_000),
      phases: { queued: null, provider_queue: null, provider_run: null, downloading: null },
      top_errors: [],
    });
    const estimate = (basis: 'measured' | 'typical', p50_ms: number, p90_ms: number) => ({
      basis,
      p50_ms,
      p90_ms,
      runs: basis === 'measured' ? 20 : 1,
      scaled_to_seconds: null,
    });
    const server = stubFetch({
      'GET /v2/run-times': () =>
        json({
          data: [
            { model: 'local-sketch', provider: 'local', estimate: estimate('measured', 18_000, 25_000) },
            { model: 'local-upscale', provider: 'local', estimate: estimate('typical', 1_500, 1_500) },
          ],
        } satisfies { data: RunTime[] }),
      'GET /v2/analytics/performance': () =>
        json({
          data: [
            // Two providers: the busier one speaks for the model's failures.
            row('local-sketch', 'local', 19, 1),
            row('local-sketch', 'other', 6, 0),
            // Four finished runs are too few to say how often it fails.
            row('local-upscale', 'local', 3, 1),
          ],
          meta: { ...analyticsMeta(), percentiles: 'exact' },
        } satisfies AnalyticsPerformance),
    });
    renderWithQuery(<MeasuredPicker />);
    const button = screen.getByRole('button', { name: /Local sketch/ });
    expect(await within(button).findByText('usually 18–25 s here · 5% failed')).toBeVisible();

    await userEvent.click(button);
    const list = await screen.findByRole('listbox', { name: 'Models' });
    const [sketch, upscale] = within(list).getAllByRole('option');
    expect(sketch).toHaveTextContent('usually 18–25 s here · 5% failed');
    // Not measured enough: the catalog's time, said to be that.
    expect(upscale).toHaveTextContent('about 1.5 s (typical for this model)');
    expect(upscale).not.toHaveTextContent(/usually|failed/);

    expect(server.callsTo('GET /v2/run-times')).toHaveLength(1);
    const requests = server.callsTo('GET /v2/analytics/performance');
    expect(requests).toHaveLength(1);
    // The last 7 days, whatever model: one answer for the whole list.
    const from = Date.parse(requests[0]?.url.searchParams.get('from') ?? '');
    expect(Date.now() - from).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(Date.now() - from).toBeLessThan(7 * 86_400_000 + 120_000);
    expect(requests[0]?.url.searchParams.get('model')).toBeNull();
  });
});
