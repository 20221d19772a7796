import { cx } from '../../../components/cx.ts';
import { setTheme, THEMES, type Theme, useTheme } from '../../../theme/theme.ts';

const LABELS: Record<Theme, { label: string; hint: string }> = {
  system: { label: 'System', hint: 'Follow the device setting' },
  light: { label: 'Light', hint: 'Always light' },
  dark: { label: 'Dark', hint: 'Always dark' },
};

/** Native radio buttons (arrow keys, one tab stop), drawn as a segmented control. */
export function ThemePicker() {
  const theme = useTheme();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Theme</legend>
      <div className="mt-2 inline-flex rounded-lg bg-zinc-100 p-1 dark:bg-zinc-800">
        {THEMES.map((value) => (
          <label
            key={value}
            title={LABELS[value].hint}
            className={cx(
              'relative cursor-pointer rounded-md px-3.5 py-1.5 text-sm font-medium transition-colors',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600 dark:has-[:focus-visible]:outline-indigo-400',
              theme === value
                ? 'bg-white text-zinc-900 shadow-sm dark:bg-zinc-950 dark:text-white'
                : 'text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
            )}
          >
            <input
              type="radio"
              name="theme"
              value={value}
              checked={theme === value}
              onChange={() => setTheme(value)}
              className="sr-only"
            />
            {LABELS[value].label}
          </label>
        ))}
      </div>
      <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">{LABELS[theme].hint}.</p>
    </fieldset>
  );
}
