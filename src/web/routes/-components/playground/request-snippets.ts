import type { ToolKey } from '../../../../contract/common.ts';
import { TERMINAL_JOB_STATUSES } from '../../../../contract/values.ts';

/*
 * The playground's "Copy as …" menu: one function per language, each writing the form's request as a
 * program that runs as pasted, with nothing to install beyond the language's usual tools (curl; Node
 * 20.19 or later; Python 3 with requests). Each reads the key from `$MEDIA_API_KEY`, never the console's
 * own credentials, and carries the snippet's own Idempotency-Key. A new language is a function here and
 * an entry of SNIPPET_LANGUAGES; the menu and its note follow.
 */

/** The sugar route of a request (video analysis has its own, spec 4.2). */
export function routeOf(tool: ToolKey, analysis: boolean): string {
  if (analysis) return '/video/analyze';
  const routes: Record<ToolKey, string> = {
    image: '/image',
    video: '/video',
    speech: '/speech',
    music: '/music',
    transcription: '/transcription',
    ffmpeg: '/ffmpeg',
    render: '/render',
    pipeline: '/pipeline',
  };
  return routes[tool];
}

export interface SnippetInput {
  /** The v2 API's base URL, `/v2` included (`http://localhost:8787/v2`). */
  baseUrl: string;
  tool: ToolKey;
  analysis: boolean;
  body: Record<string, unknown>;
  /**
   * A literal key made when the snippet is copied: running the same snippet again replays the same job
   * instead of paying twice (a `$(uuidgen)` would be empty where uuidgen is missing, and curl would then
   * drop the header altogether).
   */
  idempotencyKey: string;
}

/** Single-quoted for a POSIX shell: a quote inside ends the string, adds an escaped quote, reopens. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The request as a cURL command. It answers the job as created (202); poll `GET /v2/jobs/{id}` for the
 * result, or use one of the other languages, which wait for it.
 */
export function curlSnippet({ baseUrl, tool, analysis, body, idempotencyKey }: SnippetInput): string {
  return [
    `curl -X POST ${shellQuote(`${baseUrl}${routeOf(tool, analysis)}`)}`,
    `  -H "Authorization: Bearer $MEDIA_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -H ${shellQuote(`Idempotency-Key: ${idempotencyKey}`)}`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join(' \\\n');
}

const TERMINAL = JSON.stringify(TERMINAL_JOB_STATUSES).replaceAll(',', ', ').replaceAll('"', "'");

/** The request with the platform's own fetch (Node 20.19 or later runs it as a module), waiting for the job. */
export function javascriptSnippet({ baseUrl, tool, analysis, body, idempotencyKey }: SnippetInput): string {
  const json = JSON.stringify(body, null, 2).replaceAll('\n', '\n  ');
  return `// Node 20.19 or later: save as create-job.mjs, then run \`node create-job.mjs\`.
const baseUrl = ${JSON.stringify(baseUrl)};
const headers = { Authorization: \`Bearer \${process.env.MEDIA_API_KEY}\` };

const response = await fetch(\`\${baseUrl}${routeOf(tool, analysis)}\`, {
  method: 'POST',
  headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': ${JSON.stringify(idempotencyKey)} },
  body: JSON.stringify(${json}),
});
let job = await response.json();
if (!response.ok) throw new Error(\`\${response.status} \${job.error?.code}: \${job.error?.message}\`);

// The job runs in the background: ask for it again until it has ended.
while (!${TERMINAL}.includes(job.status)) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  job = await (await fetch(\`\${baseUrl}/jobs/\${job.id}\`, { headers })).json();
}
console.log(job.status, job.output?.outputs[0]?.url ?? job.error);
`;
}

/** A JSON value as a Python literal (true → True, null → None); JSON's strings are Python's too. */
function pythonLiteral(value: unknown, indent: string): string {
  const inner = `${indent}    `;
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => `${inner}${pythonLiteral(item, inner)},`).join('\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    const lines = entries.map(
      ([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)},`,
    );
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The request with Python's requests, waiting for the job. */
export function pythonSnippet({ baseUrl, tool, analysis, body, idempotencyKey }: SnippetInput): string {
  const terminal = TERMINAL_JOB_STATUSES.map((status) => JSON.stringify(status)).join(', ');
  return `# Python 3 with requests (pip install requests): save as create_job.py, then run \`python3 create_job.py\`.
import os
import time

import requests

BASE_URL = ${JSON.stringify(baseUrl)}
HEADERS = {"Authorization": f"Bearer {os.environ['MEDIA_API_KEY']}"}

response = requests.post(
    f"{BASE_URL}${routeOf(tool, analysis)}",
    headers={**HEADERS, "Idempotency-Key": ${JSON.stringify(idempotencyKey)}},
    json=${pythonLiteral(body, '    ')},
    timeout=60,
)
job = response.json()
if not response.ok:
    raise SystemExit(f"{response.status_code} {job['error']['code']}: {job['error']['message']}")

# The job runs in the background: ask for it again until it has ended.
while job["status"] not in (${terminal}):
    time.sleep(1)
    job = requests.get(f"{BASE_URL}/jobs/{job['id']}", headers=HEADERS, timeout=60).json()
outputs = (job.get("output") or {}).get("outputs") or []
print(job["status"], outputs[0]["url"] if outputs else job.get("error"))
`;
}

/** The `media` command of a tool (src/cli/commands/generate.ts): video analysis has its own. */
function mediaCommandOf(tool: ToolKey, analysis: boolean): string {
  if (analysis) return 'analyze';
  return tool === 'transcription' ? 'transcribe' : tool;
}

/**
 * The request as a `media` command (docs/cli.md): the whole body as `--input`, waiting for the job. The
 * command reads its key from `$MEDIA_API_KEY` or from `media login`.
 */
export function mediaSnippet({ baseUrl, tool, analysis, body, idempotencyKey }: SnippetInput): string {
  const root = baseUrl.replace(/\/v2\/?$/, '');
  const model = typeof body.model === 'string' ? [`  --model ${shellQuote(body.model)}`] : [];
  return [
    `media ${mediaCommandOf(tool, analysis)} --base-url ${shellQuote(root)}`,
    ...model,
    `  --input ${shellQuote(JSON.stringify(body, null, 2))}`,
    `  --idempotency-key ${shellQuote(idempotencyKey)}`,
    '  --wait',
  ].join(' \\\n');
}

export interface SnippetLanguage {
  id: string;
  /** As the menu says it: "Copy as cURL". */
  label: string;
  /** What the confirmation calls the copy: "Copied the cURL command." */
  noun: string;
  build: (input: SnippetInput) => string;
}

/** The "Copy as …" menu, in its order. */
export const SNIPPET_LANGUAGES: readonly SnippetLanguage[] = [
  { id: 'curl', label: 'cURL', noun: 'cURL command', build: curlSnippet },
  { id: 'javascript', label: 'JavaScript', noun: 'JavaScript', build: javascriptSnippet },
  { id: 'python', label: 'Python', noun: 'Python', build: pythonSnippet },
  { id: 'media', label: 'media command', noun: 'media command', build: mediaSnippet },
];
