// Runs before the console's modules. A file of its own, not inline in index.html: the console's
// Content-Security-Policy runs scripts from 'self' only.

// zod without its compiled fast path: the policy allows no eval, and zod's probe for it (`new Function`,
// caught) is still reported as a policy violation on every page load. zod reads this object when it loads.
globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };

// Applies the saved theme before the first paint, so a dark-mode reload does not flash white.
// The same rule lives in src/web/theme/theme.ts (key and values must match).
(() => {
  try {
    const saved = JSON.parse(localStorage.getItem('media-console:theme'));
    const dark =
      saved === 'dark' || (saved !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch {}
})();
