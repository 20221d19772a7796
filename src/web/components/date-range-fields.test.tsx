import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DateRangeFields } from './date-range-fields.tsx';

describe('a date range of a filter bar', () => {
  it('bounds each end by the other, and a cleared end is unset rather than empty', () => {
    const onChange = vi.fn();
    render(
      <DateRangeFields
        from="2026-11-01"
        to="2026-11-20"
        labels={{ from: 'From', to: 'To' }}
        onChange={onChange}
      />,
    );
    const from = screen.getByLabelText('From');
    const to = screen.getByLabelText('To');
    expect(from).toHaveAttribute('max', '2026-11-20');
    expect(to).toHaveAttribute('min', '2026-11-01');
    fireEvent.change(from, { target: { value: '2026-11-05' } });
    expect(onChange).toHaveBeenLastCalledWith({ from: '2026-11-05' });
    fireEvent.change(to, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith({ to: undefined });
  });
});
