/** Outline icons for the navigation, 20×20, drawn with the current text colour. */
const PATHS = {
  playground:
    'M10 3.5l1.6 3.9 3.9 1.6-3.9 1.6L10 14.5l-1.6-3.9L4.5 9l3.9-1.6L10 3.5zM15.5 13.5l.7 1.8 1.8.7-1.8.7-.7 1.8-.7-1.8-1.8-.7 1.8-.7.7-1.8z',
  jobs: 'M4 5.5h12M4 10h12M4 14.5h7',
  pipelines:
    'M5 5.5a1.5 1.5 0 1 0 0-.01M15 4.5a1.5 1.5 0 1 0 0-.01M15 15.5a1.5 1.5 0 1 0 0-.01M6.5 5h7M6 6.5l7.8 7.8',
  files:
    'M3.5 6A1.5 1.5 0 0 1 5 4.5h3l1.5 1.5H15A1.5 1.5 0 0 1 16.5 7.5v6.5a1.5 1.5 0 0 1-1.5 1.5H5A1.5 1.5 0 0 1 3.5 14V6z',
  analytics: 'M4 16V9.5M8 16V4.5M12 16v-5M16 16V7',
  billing:
    'M3.5 6A1.5 1.5 0 0 1 5 4.5h10A1.5 1.5 0 0 1 16.5 6v8a1.5 1.5 0 0 1-1.5 1.5H5A1.5 1.5 0 0 1 3.5 14V6zM3.5 8.5h13M6.5 12.5h3',
  budgets: 'M10 16.5a6.5 6.5 0 1 1 6.5-6.5M10 10l3.5-3.5M10 16.5h6.5',
  presets: 'M4 4.5h5v5H4zM11 4.5h5v5h-5zM4 11.5h5v5H4zM11 11.5h5v5h-5z',
  templates: 'M4 3.5h12v13H4zM4 8h12M8 8v8.5',
  keys: 'M12.5 3.5a4 4 0 1 1-3.7 5.5L4 13.8V16h2.2v-1.5h1.5V13h1.5l1.2-1.2A4 4 0 0 1 12.5 3.5zM13.5 6.5h.01',
  team: 'M7.5 9a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM2.5 16a5 5 0 0 1 10 0M13 4.2a2.5 2.5 0 0 1 0 4.6M15 11.5a5 5 0 0 1 2.5 4.5',
  audit: 'M5.5 3.5h9v13h-9zM8 7h4M8 10h4M8 13h2.5',
  settings:
    'M10 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM16 10c0-.4 0-.8-.1-1.2l1.6-1.3-1.5-2.6-2 .6a6 6 0 0 0-2-1.2L11.5 2.5h-3L8 4.3a6 6 0 0 0-2 1.2l-2-.6-1.5 2.6 1.6 1.3a6 6 0 0 0 0 2.4L2.5 12.5 4 15.1l2-.6a6 6 0 0 0 2 1.2l.5 1.8h3l.5-1.8a6 6 0 0 0 2-1.2l2 .6 1.5-2.6-1.6-1.3c.1-.4.1-.8.1-1.2z',
} as const;

export type NavIconName = keyof typeof PATHS;

export function NavIcon({ name }: { name: NavIconName }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.5"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="size-5 shrink-0"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
