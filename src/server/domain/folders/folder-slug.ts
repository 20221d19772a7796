const SLUG_MAX = 60;
const UUID_LIKE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `My Renders (2024)!` → `my-renders-2024`; letters of any script are kept, accents dropped. */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
  // A slug that reads as a UUID would be taken for a folder id by X-Workspace-Id.
  if (base === '' || UUID_LIKE.test(base)) return `folder${base ? `-${base.slice(0, 8)}` : ''}`;
  return base;
}

/** The slug, then `slug-2`, `slug-3`...: tried in order until one is free in the team. */
export function* slugCandidates(name: string, tries = 50): Generator<string> {
  const base = slugify(name);
  yield base;
  for (let n = 2; n <= tries; n++) yield `${base}-${n}`;
  // Past that many alike names, a random suffix.
  for (;;) yield `${base}-${Math.random().toString(36).slice(2, 8)}`;
}
