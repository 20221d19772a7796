// The API reference page's own script (src/server/http/api-reference.ts), a file because the page runs
// scripts from 'self' only. It runs before the renderer (a module, which waits for the page): the
// reference follows the console's theme, and "Try" sends requests to this server, whatever the document
// names as its public URL.
(() => {
  const reference = document.getElementById('api-reference');
  if (!reference) return;
  let dark = false;
  try {
    // The console's saved theme (src/web/theme/theme.ts; the key and values must match).
    const saved = JSON.parse(localStorage.getItem('media-console:theme'));
    dark = saved === 'dark' || (saved !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  } catch {}
  const colours = dark
    ? {
        theme: 'dark',
        'bg-color': '#18181b',
        'text-color': '#e4e4e7',
        'nav-bg-color': '#09090b',
        'primary-color': '#a5b4fc',
      }
    : {
        theme: 'light',
        'bg-color': '#ffffff',
        'text-color': '#18181b',
        'nav-bg-color': '#f4f4f5',
        'nav-text-color': '#27272a',
      };
  for (const [name, value] of Object.entries(colours)) reference.setAttribute(name, value);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  // The page's "Loading…" note goes once the document is drawn.
  reference.addEventListener('spec-loaded', () => document.getElementById('api-reference-loading')?.remove());
  const server = `${location.origin}/v2`;
  reference.setAttribute('server-url', server);
  reference.setAttribute('default-api-server', server);
})();
