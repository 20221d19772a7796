import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LoadingNote } from './loading-note.tsx';

describe('loading note', () => {
  it('announces its text as a status, with a spinner hidden from screen readers', () => {
    render(<LoadingNote>Loading jobs…</LoadingNote>);
    const note = screen.getByRole('status');
    expect(note.tagName).toBe('P');
    expect(note).toHaveTextContent('Loading jobs…');
    const spinner = note.querySelector('svg');
    expect(spinner).not.toBeNull();
    expect(spinner).toHaveAttribute('aria-hidden', 'true');
    expect(spinner).toHaveClass('animate-spin');
  });

  it('is small text by default, extra-small on request, and keeps the classes it is given', () => {
    const { rerender } = render(<LoadingNote>Loading files…</LoadingNote>);
    const note = screen.getByRole('status');
    expect(note).toHaveClass(
      'flex',
      'items-center',
      'gap-2',
      'text-sm',
      'text-zinc-600',
      'dark:text-zinc-400',
    );
    expect(note).not.toHaveClass('text-xs');

    rerender(
      <LoadingNote size="xs" className="py-16">
        Loading files…
      </LoadingNote>,
    );
    expect(note).toHaveClass('text-xs', 'py-16', 'text-zinc-600');
    expect(note).not.toHaveClass('text-sm');
  });
});
