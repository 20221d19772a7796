import type { RunContext } from '../../domain/jobs/provider.ts';

/**
 * An input file as a `data:` URI. Our own files live at this server's URL, which a provider usually
 * cannot reach (a laptop, a private network), so adapters send the bytes themselves.
 */
export async function inputAsDataUri(context: RunContext, url: string): Promise<string> {
  const { body, contentType } = await context.readInput(url);
  const type = contentType.split(';')[0]?.trim() || 'application/octet-stream';
  return `data:${type};base64,${body.toString('base64')}`;
}

/** An input file as a Blob for multipart uploads, named after its URL's last segment. */
export async function inputAsBlob(context: RunContext, url: string): Promise<{ blob: Blob; name: string }> {
  const { body, contentType } = await context.readInput(url);
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'input');
  return { blob: new Blob([new Uint8Array(body)], { type: contentType.split(';')[0]?.trim() }), name };
}
