import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { ModelPicker } from './model-picker.tsx';

// Its own file: the model list must not have been loaded yet (a lazy component loads once per module graph).

const MODELS: PriceCatalogEntry[] = [
  {
    model: 'local-sketch',
    tool: 'image',
    display_name: 'Local sketch',
    description: 'Local sketch, for tests',
    available: true,
    providers: [
      {
        provider: 'local',
        model_key: 'local:local-sketch',
        pricing_id: 'price_local-sketch',
        user_price_estimate_cents: 1,
        unit: 'image',
        unit_price_cents: 1,
        available: true,
        unavailable_reason: null,
      },
    ],
  },
];

describe('the model picker opened the first time', () => {
  it('gives the search the focus in the commit that draws the list, so a key pressed at once reaches it', async () => {
    Element.prototype.scrollIntoView = vi.fn();
    render(<ModelPicker models={MODELS} selected={MODELS[0]} onSelect={vi.fn()} />);
    // The list is loaded lazily. React runs passive effects a task after such a commit, and a key pressed
    // in between went to the picker's button; what has the focus when the list is first in the document
    // (a mutation observer runs right after the commit, before any other task) is what a key would reach.
    const focusedWhenDrawn = new Promise<Element | null>((resolve) => {
      const observer = new MutationObserver(() => {
        const search = document.querySelector('[role="combobox"]');
        if (!search) return;
        observer.disconnect();
        resolve(document.activeElement === search ? search : document.activeElement);
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await userEvent.click(screen.getByRole('button', { name: /^Model: ?Local sketch/ }));
    const search = await screen.findByRole('combobox', { name: 'Search models' });
    expect(await focusedWhenDrawn).toBe(search);
  });
});
