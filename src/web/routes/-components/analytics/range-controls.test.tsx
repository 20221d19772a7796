import { render, screen } from '@testing-library/react';
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
    expect(screen.getByText('Oct 26, 2026 – Nov 24, 2026 · 30 days in UTC')).toBeVisible();
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
    await user.click(screen.getByRole('checkbox', { name: 'Compare with the previous period' }));
    expect(onChange).toHaveBeenLastCalledWith({ compare: 'off' });
  });
});
