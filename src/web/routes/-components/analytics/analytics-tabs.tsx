import { type KeyboardEvent, useRef } from 'react';
import { cx } from '../../../components/cx.ts';
import { ANALYTICS_TABS, type AnalyticsTab } from './analytics-search.ts';

export const TAB_LABELS: Record<AnalyticsTab, string> = { spend: 'Spend', performance: 'Performance' };

export const tabId = (tab: AnalyticsTab) => `analytics-tab-${tab}`;
export const tabPanelId = (tab: AnalyticsTab) => `analytics-tabpanel-${tab}`;

/** Spend or Performance: a tab list (arrow keys move between tabs, as the ARIA pattern says). */
export function AnalyticsTabs({
  value,
  onChange,
}: {
  value: AnalyticsTab;
  onChange: (tab: AnalyticsTab) => void;
}) {
  const refs = useRef<Partial<Record<AnalyticsTab, HTMLButtonElement | null>>>({});
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next =
      ANALYTICS_TABS[(ANALYTICS_TABS.indexOf(value) + step + ANALYTICS_TABS.length) % ANALYTICS_TABS.length]!;
    onChange(next);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label="Analytics"
      className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800"
      onKeyDown={onKeyDown}
    >
      {ANALYTICS_TABS.map((tab) => (
        <button
          key={tab}
          ref={(element) => {
            refs.current[tab] = element;
          }}
          type="button"
          role="tab"
          id={tabId(tab)}
          aria-selected={value === tab}
          aria-controls={tabPanelId(tab)}
          tabIndex={value === tab ? 0 : -1}
          onClick={() => onChange(tab)}
          className={cx(
            '-mb-px border-b-2 px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-600',
            value === tab
              ? 'border-indigo-600 text-zinc-900 dark:border-indigo-400 dark:text-zinc-100'
              : 'border-transparent text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
          )}
        >
          {TAB_LABELS[tab]}
        </button>
      ))}
    </div>
  );
}
