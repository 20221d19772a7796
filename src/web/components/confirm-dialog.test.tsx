import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from './confirm-dialog.tsx';

function buttonsOf(title: string, confirmLabel: string) {
  const { unmount } = render(
    <ConfirmDialog title={title} confirmLabel={confirmLabel} onConfirm={vi.fn()} onClose={vi.fn()}>
      Sure?
    </ConfirmDialog>,
  );
  const footer = within(screen.getByRole('dialog', { name: title }));
  const names = footer.getAllByRole('button').map((button) => button.textContent);
  unmount();
  return names;
}

describe('a confirmation', () => {
  it('never puts a way out that reads like the action beside it: "Go back" beside a cancel', () => {
    expect(buttonsOf('Remove Ada?', 'Remove member')).toContain('Cancel');
    const cancelling = buttonsOf('Cancel 20 jobs?', 'Cancel 20 jobs');
    expect(cancelling).toContain('Go back');
    expect(cancelling).not.toContain('Cancel');
  });
});
