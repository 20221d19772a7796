import { useSyncExternalStore } from 'react';

/* Chart colours that read on both the light and the dark page; the theme is the class on <html>. */

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

const isDark = () => document.documentElement.classList.contains('dark');

/** Whether the console shows its dark theme now (applyTheme puts `dark` on <html>, whatever chose it). */
export function useIsDark(): boolean {
  return useSyncExternalStore(subscribe, isDark, () => false);
}

/** Mid-tone hues, distinct from each other and with enough contrast on white and on zinc-900. */
const SERIES_LIGHT = ['#4f46e5', '#059669', '#d97706', '#0284c7', '#e11d48', '#7c3aed', '#65a30d', '#c026d3'];
const SERIES_DARK = ['#818cf8', '#34d399', '#fbbf24', '#38bdf8', '#fb7185', '#a78bfa', '#a3e635', '#e879f9'];

export interface ChartColors {
  series: (index: number) => string;
  other: string;
  axis: string;
  grid: string;
  cursor: string;
}

export function chartColors(dark: boolean): ChartColors {
  const series = dark ? SERIES_DARK : SERIES_LIGHT;
  return {
    series: (index) => series[index % series.length] ?? '#71717a',
    other: dark ? '#71717a' : '#a1a1aa',
    axis: dark ? '#a1a1aa' : '#52525b',
    grid: dark ? '#3f3f46' : '#e4e4e7',
    cursor: dark ? 'rgba(255,255,255,0.06)' : 'rgba(0,0,0,0.05)',
  };
}
