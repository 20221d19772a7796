import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { Job } from '../../../../contract/jobs.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { catalogSchema } from '../../../schema-form/testing/catalog-schemas.ts';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { readDraft } from './form-drafts.ts';
import { RunForm, type RunFormProps } from './run-form.tsx';

const SKETCH: PriceCatalogEntry = {
  model: 'local-sketch',
  tool: 'image',
  display_name: 'Local procedural sketch',
  description: '',
  available: true,
  providers: [
    {
      provider: 'local',
      model_key: 'local:local-sketch',
      pricing_id: 'local:sketch:image',
      user_price_estimate_cents: 1,
      unit: 'image',
      unit_price_cents: 1,
      available: true,
      unavailable_reason: null,
    },
  ],
};

const MOTION: PriceCatalogEntry = {
  ...SKETCH,
  model: 'local-motion',
  tool: 'video',
  providers: [
    {
      ...SKETCH.providers[0]!,
      model_key: 'local:local-motion',
      unit: 'second',
      unit_price_cents: 1,
      user_price_estimate_cents: 5,
    },
  ],
};

function job(id: string): Job {
  return { id, tool: 'image', status: 'queued', estimated_cost_cents: 1 } as Job;
}

function server(create: (attempt: number) => Response | Promise<Response>) {
  let attempts = 0;
  return stubFetch({
    'GET /v2/me': () => json({ balance_cents: 1000 }),
    'GET /v2/presets': () => json({ data: [], next_cursor: null }),
    'POST /v2/tools/image/call': () => create(++attempts),
    'POST /v2/tools/video/call': () => create(++attempts),
  });
}

function renderForm(overrides: Partial<RunFormProps> = {}) {
  const onCreated = vi.fn();
  const props: RunFormProps = {
    tool: 'image',
    model: 'local-sketch',
    baseModel: 'local-sketch',
    pinned: null,
    entry: SKETCH,
    inputSchema: catalogSchema('image/local-sketch'),
    onCreated,
    onSwitchModel: vi.fn(),
    ...overrides,
  };
  const view = renderWithQuery(
    <Suspense fallback="loading">
      <RunForm {...props} />
    </Suspense>,
  );
  return { ...view, onCreated, props };
}

const run = () => screen.getByRole('button', { name: 'Run' });

describe('the run form', () => {
  it('sends one job for a double click, with an Idempotency-Key and the picked model', async () => {
    let release: () => void = () => {};
    const api = server(
      () => new Promise((resolve) => (release = () => resolve(json(job('job_1'), { status: 202 })))),
    );
    const { onCreated } = renderForm();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'a kite');
    // Both clicks land before React re-renders (the button is not disabled yet): as fast as it gets.
    fireEvent.click(run());
    fireEvent.click(run());
    await waitFor(() => expect(api.callsTo('POST /v2/tools/image/call')).toHaveLength(1));
    act(() => release());
    await waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1));
    const [post] = api.callsTo('POST /v2/tools/image/call');
    expect(post?.body).toEqual({ model: 'local-sketch', prompt: 'a kite' });
    expect(post?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows the seed beside Run and gives the next run a new one, so running again is a new take', async () => {
    let created = 0;
    const api = server(() => json(job(`job_${++created}`), { status: 202 }));
    const { onCreated } = renderForm();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'a red fox');
    const seed = screen.getByRole('textbox', { name: /^Seed/ });
    expect(screen.getByRole('checkbox', { name: 'New seed after each run' })).toBeChecked();
    await userEvent.click(run());
    await waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(seed).not.toHaveValue(''));
    const drawn = Number((seed as HTMLInputElement).value);
    expect(Number.isInteger(drawn)).toBe(true);
    await userEvent.click(run());
    await waitFor(() => expect(onCreated).toHaveBeenCalledTimes(2));
    const [first, second] = api.callsTo('POST /v2/tools/image/call');
    expect(first?.body).toEqual({ model: 'local-sketch', prompt: 'a red fox' });
    expect(second?.body).toEqual({
      model: 'local-sketch',
      prompt: 'a red fox',
      provider_options: { local: { seed: drawn } },
    });
    // Two different runs: two different keys (the cache and idempotency see two requests).
    expect(first?.headers.get('idempotency-key')).not.toBe(second?.headers.get('idempotency-key'));
    await waitFor(() => expect(seed).not.toHaveValue(String(drawn)));
  });

  it('keeps the seed when asked to, and Vary draws a new one at once', async () => {
    const api = server(() => json(job('job_1'), { status: 202 }));
    const { onCreated } = renderForm();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'three blue whales');
    const seed = screen.getByRole('textbox', { name: /^Seed/ });
    await userEvent.type(seed, '42');
    await userEvent.click(screen.getByRole('checkbox', { name: 'New seed after each run' }));
    await userEvent.click(run());
    await waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1));
    expect(seed).toHaveValue('42');
    expect(api.callsTo('POST /v2/tools/image/call')[0]?.body).toMatchObject({
      provider_options: { local: { seed: 42 } },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Vary' }));
    await waitFor(() => expect(seed).not.toHaveValue('42'));
    expect(Number.isInteger(Number((seed as HTMLInputElement).value))).toBe(true);
  });

  it('retries a failed attempt with the same key, so the server never makes the job twice', async () => {
    const api = server((attempt) =>
      attempt === 1 ? apiError(503, 'service_unavailable', 'Busy') : json(job('job_2'), { status: 202 }),
    );
    const { onCreated } = renderForm();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'a kite');
    await userEvent.click(run());
    expect(await screen.findByRole('alert')).toHaveTextContent('Busy');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 'job_2' })));
    const keys = api.callsTo('POST /v2/tools/image/call').map((call) => call.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('names the replacement of a retired model, and switches to it keeping what was typed', async () => {
    server(() =>
      json(
        {
          error: {
            code: 'model_retired',
            message: 'Model `local-sketch` was retired on 2026-01-01: its provider no longer serves it.',
            details: { model: 'local-sketch', retired_on: '2026-01-01', replacement: 'local-sketch-2' },
          },
        },
        { status: 404 },
      ),
    );
    const { props } = renderForm();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'a kite');
    await userEvent.click(run());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This model has been retired');
    expect(alert).toHaveTextContent('its provider no longer serves it');
    // Sending it again would be refused again: no "Try again", the way on instead.
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Use local-sketch-2 instead' }));
    expect(props.onSwitchModel).toHaveBeenCalledWith(
      'local-sketch-2',
      expect.objectContaining({ prompt: 'a kite' }),
    );
  });

  it('gives a changed request a new key', async () => {
    const api = server(() => apiError(503, 'service_unavailable', 'Busy'));
    renderForm();
    const prompt = await screen.findByRole('textbox', { name: 'Prompt' });
    await userEvent.type(prompt, 'a');
    await userEvent.click(run());
    await screen.findByRole('alert');
    await userEvent.type(prompt, 'b');
    await userEvent.click(run());
    await waitFor(() => expect(api.callsTo('POST /v2/tools/image/call')).toHaveLength(2));
    const [first, second] = api
      .callsTo('POST /v2/tools/image/call')
      .map((c) => c.headers.get('idempotency-key'));
    expect(first).not.toBe(second);
  });

  it('puts the server’s field errors (422) in place, and focus on the first', async () => {
    server(() =>
      json(
        {
          error: {
            code: 'invalid_request',
            message: 'Invalid request: prompt: prompt or files is required',
            details: {
              fields: [{ field: 'prompt', message: 'prompt or files is required', code: 'custom' }],
            },
          },
        },
        { status: 422 },
      ),
    );
    renderForm();
    await userEvent.click(await screen.findByRole('button', { name: 'Run' }));
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    await waitFor(() => expect(prompt).toHaveAttribute('aria-invalid', 'true'));
    expect(prompt).toHaveAccessibleDescription(/Prompt or files is required\./);
    // A keyboard user lands on what to fix, as with the form's own checks, not on the page's body.
    expect(prompt).toHaveFocus();
    // The banner names the field by its label, not by the server's `prompt: …` summary.
    const banner = screen.getByRole('alert');
    expect(banner).toHaveTextContent('Some inputs need attention');
    expect(banner).toHaveTextContent('Prompt: Prompt or files is required.');
    expect(banner).not.toHaveTextContent('Invalid request');
    // It is about the values that were sent: a change to the form clears it.
    await userEvent.type(prompt, 'a kite');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
  });

  it('submits with Ctrl+Enter, never with Enter in a one-line field', async () => {
    const api = server(() => json(job('job_3'), { status: 202 }));
    renderForm();
    const other = await screen.findByRole('textbox', { name: 'Aspect ratio, another ratio' });
    await userEvent.type(other, '5:4{Enter}');
    expect(api.callsTo('POST /v2/tools/image/call')).toHaveLength(0);
    fireEvent.keyDown(other, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(api.callsTo('POST /v2/tools/image/call')).toHaveLength(1));
    expect(api.callsTo('POST /v2/tools/image/call')[0]?.body).toEqual({
      model: 'local-sketch',
      aspect_ratio: '5:4',
    });
  });

  it('while another model is opening, takes no input and starts nothing', async () => {
    const api = server(() => json(job('job_6'), { status: 202 }));
    renderForm({ opening: true });
    expect(await screen.findByText('Opening the model you picked…')).toBeInTheDocument();
    expect(run()).toBeDisabled();
    const prompt = screen.getByRole('textbox', { name: 'Prompt' });
    expect(prompt).toBeDisabled();
    // Ctrl/Cmd+Enter calls the submit itself: it must not start the old model either.
    fireEvent.keyDown(prompt, { key: 'Enter', ctrlKey: true });
    fireEvent.submit(screen.getByRole('form', { name: 'Run' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(api.callsTo('POST /v2/tools/image/call')).toHaveLength(0);
  });

  it('checks and sends a run started before the form was touched (its checks load on demand)', async () => {
    const api = server(() => json(job('job_7'), { status: 202 }));
    const { onCreated } = renderForm();
    await screen.findByRole('textbox', { name: 'Prompt' });
    fireEvent.submit(screen.getByRole('form', { name: 'Run' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalledTimes(1));
    expect(api.callsTo('POST /v2/tools/image/call')[0]?.body).toEqual({ model: 'local-sketch' });
  });

  it('shows the price as the form changes, and the balance beside it', async () => {
    server(() => json(job('job_4'), { status: 202 }));
    renderForm({
      tool: 'video',
      model: 'local-motion',
      baseModel: 'local-motion',
      entry: MOTION,
      inputSchema: catalogSchema('video/local-motion'),
    });
    expect(await screen.findByTestId('cost-estimate')).toHaveTextContent('5 credits ($0.05)');
    expect(screen.getByText(/a typical request/)).toBeInTheDocument();
    expect(screen.getByText('1,000 credits')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Duration' }), '2');
    expect(screen.getByTestId('cost-estimate')).toHaveTextContent('2 credits ($0.02)');
    expect(screen.getByText(/2 seconds × 1 credit \/ second on local/)).toBeInTheDocument();
  });

  it('prices no form that cannot run, even before its checks have loaded', async () => {
    server(() => json(job('job_6'), { status: 202 }));
    const FLITE: PriceCatalogEntry = {
      ...SKETCH,
      model: 'local-flite',
      tool: 'speech',
      providers: [{ ...SKETCH.providers[0]!, unit: 'thousand_characters', unit_price_cents: 1 }],
    };
    renderForm({
      tool: 'speech',
      model: 'local-flite',
      baseModel: 'local-flite',
      entry: FLITE,
      inputSchema: catalogSchema('speech/local-flite'),
    });
    // Untouched: the text it needs is missing, so there is no "1 credit" for it.
    expect(await screen.findByTestId('cost-missing')).toHaveTextContent(
      'The estimate appears once the required fields are filled in.',
    );
    expect(screen.queryByTestId('cost-estimate')).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Text' }), 'Hello');
    expect(await screen.findByTestId('cost-estimate')).toHaveTextContent('1 credit ($0.01)');
  });

  it('keeps the values as a draft per tool and model, restored when the form opens again', async () => {
    server(() => json(job('job_5'), { status: 202 }));
    const first = renderForm();
    await userEvent.type(await screen.findByRole('textbox', { name: 'Prompt' }), 'kept');
    first.unmount();
    expect(readDraft('image', 'local-sketch')).toMatchObject({ prompt: 'kept' });
    renderForm();
    expect(await screen.findByRole('textbox', { name: 'Prompt' })).toHaveValue('kept');
  });
});
