/** First focusable element of the page: jumps past the navigation to the main content. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-zinc-900 focus:shadow-lg focus:ring-1 focus:ring-zinc-300 dark:focus:bg-zinc-900 dark:focus:text-white dark:focus:ring-zinc-700"
    >
      Skip to content
    </a>
  );
}
