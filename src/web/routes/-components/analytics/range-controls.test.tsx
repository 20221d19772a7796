import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { viewOf } from './analytics-search.ts';
import { RangeControls } from './range-controls.tsx';

const NOW = new Date('2026-11-24T12:00:00Z');

describe('range, timezone and comparison controls', () => {
  it('switches to a custom range starting from the days on screen, and a preset clears them', async () => {
    const onChange = vi.fn();
    render(<RangeControls view={viewOf({ tz: 'UTC' }, NOW)} onChange={onChange} />);
    const user = userEvent.setup();
    expect(
      screen.getByText(
        'Oct 26 – Nov 24, 2026 (30 days) in UTC, compared with Sep 26 – Oct 25, 2026 (30 days)',
      ),
    ).toBeVisible();
    // Each preset says the days it covers.
    expect(screen.getByRole('option', { name: /^12 months to date/ })).toHaveTextContent(
      '12 months to date · Dec 1, 2025 – Nov 24, 2026 (359 days)',
    );
    expect(screen.getByRole('option', { name: /^Last quarter/ })).toHaveTextContent(
      'Last quarter · Jul 1 – Sep 30, 2026 (92 days)',
    );
    await user.selectOptions(screen.getByLabelText('Range'), 'custom');
    expect(onChange).toHaveBeenLastCalledWith({ range: 'custom', from: '2026-10-26', to: '2026-11-24' });
    await user.selectOptions(screen.getByLabelText('Range'), 'last_month');
    expect(onChange).toHaveBeenLastCalledWith({ range: 'last_month', from: undefined, to: undefined });
  });

  it('applies a custom range only when it can be asked for (at most 366 days)', async () => {
    const onChange = vi.fn();
    render(
      <RangeControls
        view={viewOf({ tz: 'UTC', range: 'custom', from: '2026-03-01', to: '2026-03-31' }, NOW)}
        onChange={onChange}
      />,
    );
    const user = userEvent.setup();
    const first = screen.getByLabelText('First day');
    expect(first).toHaveValue('2026-03-01');
    await user.clear(first);
    await user.type(first, '2024-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply range' }));
    expect(await screen.findByText('A range is at most 366 days.')).toBeVisible();
    expect(onChange).not.toHaveBeenCalled();
    await user.clear(first);
    await user.type(first, '2026-02-01');
    await user.click(screen.getByRole('button', { name: 'Apply range' }));
    expect(onChange).toHaveBeenCalledWith({ range: 'custom', from: '2026-02-01', to: '2026-03-31' });
  });

  it('offers every timezone of the browser and turns the comparison off in the URL', async () => {
    const onChange = vi.fn();
    render(<RangeControls view={viewOf({ tz: 'Europe/Paris' }, NOW)} onChange={onChange} />);
    const user = userEvent.setup();
    const zone = screen.getByLabelText('Timezone');
    expect(zone).toHaveValue('Europe/Paris');
    await user.selectOptions(zone, 'Asia/Tokyo');
    expect(onChange).toHaveBeenLastCalledWith({ tz: 'Asia/Tokyo' });
    await user.selectOptions(screen.getByLabelText('Compare with'), 'off');
    expect(onChange).toHaveBeenLastCalledWith({ compare: 'off', cfrom: undefined, cto: undefined });
  });

  it('offers the period before and the same period last year with their days, and custom days', async () => {
    const onChange = vi.fn();
    const view = viewOf({ tz: 'UTC', range: 'last_quarter' }, NOW);
    const { rerender } = render(<RangeControls view={view} onChange={onChange} />);
    const user = userEvent.setup();
    const compare = screen.getByLabelText('Compare with');
    expect(
      within(compare)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      'The period before · Apr 1 – Jun 30, 2026 (91 days)',
      'The same period last year · Jul 1 – Sep 30, 2025 (92 days)',
      'Custom days…',
      'No comparison',
    ]);
    await user.selectOptions(compare, 'custom');
    expect(onChange).toHaveBeenLastCalledWith({ compare: 'custom', cfrom: '2026-04-01', cto: '2026-06-30' });

    rerender(
      <RangeControls
        view={viewOf(
          { tz: 'UTC', range: 'last_quarter', compare: 'custom', cfrom: '2026-04-01', cto: '2026-06-30' },
          NOW,
        )}
        onChange={onChange}
      />,
    );
    const first = screen.getByLabelText('First day compared');
    await user.clear(first);
    await user.type(first, '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply comparison' }));
    expect(onChange).toHaveBeenLastCalledWith({ compare: 'custom', cfrom: '2026-01-01', cto: '2026-06-30' });
  });
});
