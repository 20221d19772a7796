import type { Context } from 'hono';
import { API_REFERENCE_HEADERS } from './console-headers.ts';
import type { AppEnv } from './env.ts';
import { respond } from './respond.ts';

/** Where the API reference is: a page of its own, beside the console (which links to it). */
export const API_REFERENCE_PATH = '/api-reference';

/**
 * The renderer and the page's script, files of the console's build (`dist/api-reference/`, see
 * scripts/api-reference-renderer.ts): served like the console's other files, offline, from this server.
 */
export const API_REFERENCE_RENDERER = '/api-reference/rapidoc-min.js';
export const API_REFERENCE_SCRIPT = '/api-reference/api-reference.js';

/*
 * RapiDoc draws /v2/openapi.json, the document of exactly the routes this server mounts: every route with
 * its fields, errors and examples, searchable, with "Try" (a key pasted under Authentication, kept for
 * the page only). No font, logo or script comes from elsewhere (load-fonts="false"); the page's script
 * sets the theme and this server's address before the renderer starts.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Media Console</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<script type="module" src="${API_REFERENCE_RENDERER}"></script>
</head>
<body style="margin:0">
<rapi-doc
  id="api-reference"
  spec-url="/v2/openapi.json"
  render-style="focused"
  load-fonts="false"
  show-header="false"
  allow-spec-url-load="false"
  allow-spec-file-load="false"
  allow-server-selection="false"
  allow-authentication="true"
  persist-auth="false"
  show-method-in-nav-bar="as-colored-text"
  schema-description-expanded="true"
  primary-color="#4f46e5"
>
  <nav slot="nav-logo" aria-label="Media Console" style="display:flex;flex-direction:column;gap:4px;padding:12px 16px;font:14px system-ui,sans-serif">
    <a href="/playground" style="color:inherit;font-weight:600">← Back to the console</a>
    <span>The document: <a href="/v2/openapi.json" style="color:inherit">JSON</a> · <a href="/v2/openapi.yaml" style="color:inherit">YAML</a></span>
  </nav>
  <p id="api-reference-loading" style="font:16px system-ui,sans-serif;padding:24px">
    Loading the API reference… It is drawn from <a href="/v2/openapi.json">/v2/openapi.json</a>.
  </p>
</rapi-doc>
<script src="${API_REFERENCE_SCRIPT}"></script>
</body>
</html>
`;

/** The page (never cached: a new build may rename nothing, but the policy and the script go together). */
export function apiReferencePage(c: Context<AppEnv>): Response {
  return respond(c, 200, PAGE, {
    ...API_REFERENCE_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
  });
}
