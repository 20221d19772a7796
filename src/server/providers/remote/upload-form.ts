import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { InputFile } from '../../domain/jobs/provider.ts';
import { ProviderError } from '../../domain/jobs/provider-error.ts';

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

/** A field of a streamed multipart body: text, or a file whose bytes are read as the body is sent. */
export type FormPart =
  | { name: string; value: string }
  | { name: string; file: InputFile; fileName: string; contentType: string; maxBytes?: number };

/** A multipart/form-data body for provider-http's `stream`, with what went wrong while reading it. */
export interface StreamedForm {
  body: Readable;
  contentType: string;
  /** Known when every file's size is: then sent as Content-Length. */
  length: number | null;
  /** The error that stopped the body (a file past its limit, or not the size it said); null otherwise. */
  failure(): ProviderError | null;
}

/**
 * A multipart/form-data body (RFC 7578) whose files are streamed from their source as it is sent, so memory
 * stays flat whatever their size (undici's FormData takes only Blobs, which are held whole). Field names
 * and file names are escaped as the WHATWG multipart encoder does (`"`, CR, LF as %22, %0D, %0A). A file
 * of unknown size is counted as it goes and the body fails once it passes its part's `maxBytes`.
 */
export function streamedForm(parts: readonly FormPart[], signal?: AbortSignal): StreamedForm {
  const boundary = `----MediaConsoleBoundary${randomBytes(16).toString('hex')}`;
  const heads = parts.map((part) => Buffer.from(partHead(boundary, part), 'utf8'));
  const tail = Buffer.from(`--${boundary}--\r\n`, 'utf8');
  let length: number | null = tail.length;
  for (const [index, part] of parts.entries()) {
    const size = 'file' in part ? part.file.size : Buffer.byteLength(part.value, 'utf8');
    length = length === null || size === null ? null : length + heads[index]!.length + size + 2;
  }
  let failure: ProviderError | null = null;
  async function* bytes(): AsyncGenerator<Buffer> {
    for (const [index, part] of parts.entries()) {
      yield heads[index]!;
      if (!('file' in part)) {
        yield Buffer.from(part.value, 'utf8');
      } else {
        let read = 0;
        for await (const chunk of await part.file.open(signal)) {
          const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
          read += buffer.length;
          if (part.maxBytes !== undefined && read > part.maxBytes) {
            failure = tooLarge(part.fileName, read, part.maxBytes, 'at least ');
            throw failure;
          }
          yield buffer;
        }
        if (part.file.size !== null && read !== part.file.size) {
          failure = new ProviderError(
            'provider_error',
            `${part.fileName} was ${read} bytes where ${part.file.size} were expected; nothing was submitted.`,
            { accepted: 'no' },
          );
          throw failure;
        }
      }
      yield Buffer.from('\r\n', 'utf8');
    }
    yield tail;
  }
  return {
    body: Readable.from(bytes()),
    contentType: `multipart/form-data; boundary=${boundary}`,
    length,
    failure: () => failure,
  };
}

function partHead(boundary: string, part: FormPart): string {
  const quoted = (text: string) => text.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const disposition = `Content-Disposition: form-data; name="${quoted(part.name)}"`;
  if (!('file' in part)) return `--${boundary}\r\n${disposition}\r\n\r\n`;
  return `--${boundary}\r\n${disposition}; filename="${quoted(part.fileName)}"\r\nContent-Type: ${part.contentType}\r\n\r\n`;
}

function tooLarge(name: string, size: number, max: number, qualifier = ''): ProviderError {
  const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;
  return new ProviderError(
    'provider_rejected',
    `${name} is ${qualifier}${mb(size)}; the provider takes at most ${mb(max)} for it. Nothing was uploaded.`,
    { accepted: 'no' },
  );
}

/** Refuses, before anything is sent, a file whose known size is over the provider's documented limit. */
export function checkFileSize(file: InputFile, maxBytes: number, what: string): void {
  if (file.size !== null && file.size > maxBytes) throw tooLarge(what, file.size, maxBytes);
}

/**
 * A job's input file as a multipart file part. The file name keeps the URL's last segment, with an
 * extension from the content type when it has none: OpenAI tells audio formats apart by the file name's
 * extension, and our file URLs (`.../files/<id>/content`) have none.
 */
export function filePart(name: string, file: InputFile, maxBytes?: number): FormPart {
  let fileName = file.fileName;
  const extension = EXTENSIONS[file.contentType];
  if (extension && !/\.[a-z0-9]{2,4}$/i.test(fileName)) fileName = `${fileName}.${extension}`;
  return { name, file, fileName, contentType: file.contentType, maxBytes };
}

/**
 * Request fields as multipart text parts the way the providers' SDKs send them: arrays as repeated
 * entries (named `name[]` for OpenAI, `name` for ElevenLabs), objects as JSON, everything else as text;
 * null and undefined are left out.
 */
export function fieldParts(
  fields: Record<string, unknown>,
  arrays: 'brackets' | 'repeat' = 'brackets',
): FormPart[] {
  const parts: FormPart[] = [];
  const text = (value: unknown) => (typeof value === 'object' ? JSON.stringify(value) : String(value));
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const key = arrays === 'brackets' && !name.endsWith('[]') ? `${name}[]` : name;
      for (const item of value) parts.push({ name: key, value: text(item) });
    } else {
      parts.push({ name, value: text(value) });
    }
  }
  return parts;
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

/** Sends a streamed form: an error its body raised (a file past its limit) wins over the transport's. */
export async function sendingForm<T>(form: StreamedForm, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    throw form.failure() ?? error;
  }
}
