import type { ToolKey } from '../../../../contract/common.ts';

/** The sugar route and client function of a request (video analysis has its own, spec 4.2). */
export function routeOf(tool: ToolKey, analysis: boolean): { path: string; operation: string } {
  if (analysis) return { path: '/video/analyze', operation: 'analyzeVideo' };
  const routes: Record<ToolKey, { path: string; operation: string }> = {
    image: { path: '/image', operation: 'createImage' },
    video: { path: '/video', operation: 'createVideo' },
    speech: { path: '/speech', operation: 'createSpeech' },
    music: { path: '/music', operation: 'createMusic' },
    transcription: { path: '/transcription', operation: 'createTranscription' },
    ffmpeg: { path: '/ffmpeg', operation: 'runFfmpeg' },
    render: { path: '/render', operation: 'createRender' },
    pipeline: { path: '/pipeline', operation: 'runPipeline' },
  };
  return routes[tool];
}

interface SnippetInput {
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
 * The request as a cURL command. The key is read from `$MEDIA_API_KEY` (never the console's own
 * credentials); the Idempotency-Key is the snippet's own.
 */
export function curlSnippet({ baseUrl, tool, analysis, body, idempotencyKey }: SnippetInput): string {
  const { path } = routeOf(tool, analysis);
  return [
    `curl -X POST ${shellQuote(`${baseUrl}${path}`)}`,
    `  -H "Authorization: Bearer $MEDIA_API_KEY"`,
    `  -H 'Content-Type: application/json'`,
    `  -H ${shellQuote(`Idempotency-Key: ${idempotencyKey}`)}`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join(' \\\n');
}

/** The request with this project's typed client (src/client), polling the job to its end. */
export function typescriptSnippet({ baseUrl, tool, analysis, body, idempotencyKey }: SnippetInput): string {
  const { operation } = routeOf(tool, analysis);
  const json = JSON.stringify(body, null, 2).replaceAll('\n', '\n  ');
  return `import { createClient } from 'media-console/src/client/create-client.ts';

const client = createClient({ baseUrl: ${JSON.stringify(baseUrl)}, token: process.env.MEDIA_API_KEY });

let job = await client.${operation}({
  body: ${json},
  headers: { 'idempotency-key': ${JSON.stringify(idempotencyKey)} },
});
while (!['completed', 'failed', 'cancelled'].includes(job.status)) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  job = await client.getJob({ params: { id: job.id } });
}
console.log(job.status, job.output?.outputs[0]?.url ?? job.error);
`;
}
