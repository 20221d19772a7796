import type { RunContext } from '../../domain/jobs/provider.ts';

const EXTENSIONS: Record<string, string> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** An input file read for a multipart upload, with its bytes (some callers measure them). */
export interface UploadFile {
  blob: Blob;
  name: string;
  body: Buffer;
  contentType: string;
}

/**
 * Reads one of the job's input files for a multipart upload. The file name keeps the URL's last
 * segment, with an extension from the content type when it has none: OpenAI tells audio formats
 * apart by the file name's extension, and our file URLs (`.../files/<id>/content`) have none.
 */
export async function uploadFile(
  context: RunContext,
  url: string,
  fallbackName: string,
): Promise<UploadFile> {
  const { body, contentType } = await context.readInput(url);
  const type = contentType.split(';')[0]?.trim().toLowerCase() || 'application/octet-stream';
  let name = decodeURIComponent(new URL(url).pathname.split('/').pop() || '') || fallbackName;
  const extension = EXTENSIONS[type];
  if (extension && !/\.[a-z0-9]{2,4}$/i.test(name)) name = `${name}.${extension}`;
  return { blob: new Blob([new Uint8Array(body)], { type }), name, body, contentType: type };
}

/**
 * Appends request fields to a multipart form the way the providers' SDKs do: arrays as repeated
 * entries (named `name[]` for OpenAI, `name` for ElevenLabs), objects as JSON, everything else as
 * text; null and undefined are left out.
 */
export function appendFields(
  form: FormData,
  fields: Record<string, unknown>,
  arrays: 'brackets' | 'repeat' = 'brackets',
): void {
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const key = arrays === 'brackets' && !name.endsWith('[]') ? `${name}[]` : name;
      for (const item of value)
        form.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
    } else {
      form.append(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
    }
  }
}

/** `provider_options[provider]` of a request body, as an object (empty when absent). */
export function providerOptions(body: Record<string, unknown>, provider: string): Record<string, unknown> {
  const all = body.provider_options;
  if (!all || typeof all !== 'object') return {};
  const mine = (all as Record<string, unknown>)[provider];
  return mine && typeof mine === 'object' && !Array.isArray(mine)
    ? { ...(mine as Record<string, unknown>) }
    : {};
}

/** The primary subtag of a BCP 47 code (`pt-BR` → `pt`), which is what both providers take. */
export function primaryLanguage(language: unknown): string | undefined {
  return typeof language === 'string' && language ? language.split('-')[0]!.toLowerCase() : undefined;
}
