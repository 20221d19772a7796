import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastRegion } from './toast-region.tsx';
import { dismissToast, showToast, useToasts } from './toast-store.ts';

let visible: number[] = [];
function ReadToasts() {
  visible = useToasts().map((toast) => toast.id);
  return null;
}

/** The store outlives a test: empty it. */
function clearToasts() {
  render(<ReadToasts />);
  for (const id of visible) act(() => dismissToast(id));
}

describe('toast region', () => {
  afterEach(() => {
    clearToasts();
    vi.useRealTimers();
  });

  it('announces toasts politely, and errors at once', () => {
    render(<ToastRegion />);
    act(() => {
      showToast({ title: 'Video job completed', tone: 'success' });
      showToast({ title: 'The job could not be cancelled', tone: 'error' });
    });
    expect(within(screen.getByRole('status')).getByText('Video job completed')).toBeInTheDocument();
    expect(within(screen.getByRole('alert')).getByText('The job could not be cancelled')).toBeInTheDocument();
  });

  it('runs its action, and can be dismissed', async () => {
    const user = userEvent.setup();
    const open = vi.fn();
    render(<ToastRegion />);
    act(() => {
      showToast({ title: 'Image job completed', action: { label: 'Open', onClick: open } });
    });
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(open).toHaveBeenCalledOnce();
    expect(screen.queryByText('Image job completed')).not.toBeInTheDocument();

    act(() => {
      showToast({ title: 'Another one' });
    });
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Another one')).not.toBeInTheDocument();
  });

  it('leaves after a while', () => {
    vi.useFakeTimers();
    render(<ToastRegion />);
    act(() => {
      showToast({ title: 'Short-lived' });
    });
    act(() => {
      vi.advanceTimersByTime(7_000);
    });
    expect(screen.queryByText('Short-lived')).not.toBeInTheDocument();
  });
});
