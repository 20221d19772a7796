import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
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
});
