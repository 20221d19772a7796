import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { THEME_KEY } from '../../../theme/theme.ts';
import { ThemePicker } from './theme-picker.tsx';

function systemPrefers(scheme: 'dark' | 'light') {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: query === '(prefers-color-scheme: dark)' && scheme === 'dark',
      media: query,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    })),
  );
}

const html = () => document.documentElement;

describe('theme picker', () => {
  it('starts on System', () => {
    systemPrefers('light');
    render(<ThemePicker />);
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
  });

  it('applies and remembers Dark and Light', async () => {
    systemPrefers('light');
    const user = userEvent.setup();
    render(<ThemePicker />);

    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(html()).toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_KEY)).toBe('"dark"');
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Light' }));
    expect(html()).not.toHaveClass('dark');
    expect(window.localStorage.getItem(THEME_KEY)).toBe('"light"');
  });

  it('follows the system on System', async () => {
    systemPrefers('dark');
    window.localStorage.setItem(THEME_KEY, '"light"');
    const user = userEvent.setup();
    render(<ThemePicker />);
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'System' }));
    expect(html()).toHaveClass('dark');
  });

  it('is one keyboard stop, moved with the arrow keys', async () => {
    systemPrefers('light');
    const user = userEvent.setup();
    render(<ThemePicker />);
    await user.tab();
    expect(screen.getByRole('radio', { name: 'System' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
  });
});
