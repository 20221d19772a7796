/**
 * The API reference: a page of the server's own (`/api-reference`, drawn from `/v2/openapi.json`), not a
 * console route, so a plain link that leaves the console.
 */
export const API_REFERENCE_HREF = '/api-reference';

/** The header's link to the API reference, for developers. */
export function ApiReferenceLink() {
  return (
    <a
      href={API_REFERENCE_HREF}
      className="hidden shrink-0 rounded-md px-2 py-1 text-sm font-medium text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 sm:inline-block dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-zinc-100"
    >
      API reference
    </a>
  );
}
