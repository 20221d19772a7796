import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../logger.ts';
import { imageStyleByPresetId, type SketchStyle } from './image-styles.ts';
import type { PresetPreview } from './preset-record.ts';
import { previewSentence } from './preview-sentences.ts';
import { resolveVoice, type SpeechVoice } from './speech-voices.ts';

/** Speaks `text` in `voice` to MP3 bytes (the local speech engine, given by whoever builds the routes). */
export type SpeakSample = (voice: SpeechVoice, text: string) => Promise<Buffer>;

/** Draws `prompt` (in a style, when given) to PNG bytes (the local sketch engine). */
export type DrawSample = (prompt: string, style: SketchStyle | undefined) => Promise<Buffer>;

/** The previews this server renders itself. */
export type RenderedPreview = Extract<PresetPreview, { kind: 'local-speech' | 'local-image' }>;

export interface PreviewSample {
  data: Buffer;
  mediaType: string;
  /** Strong ETag of the bytes. */
  etag: string;
}

/** Bump when samples change for reasons the cache key cannot see (encoding settings, engine upgrade). */
const SAMPLE_VERSION = 1;

const digest = (text: string | Buffer) => createHash('sha256').update(text).digest('base64url');

/**
 * Samples of the presets whose preview this server renders: spoken on first request, then kept in memory
 * and under DATA_DIR/preset-previews (so a restart does not speak them again). Concurrent requests for
 * one preset share one synthesis; a failed one is tried again on the next request.
 */
export class PresetPreviews {
  private readonly samples = new Map<string, Promise<PreviewSample>>();

  constructor(
    private readonly deps: { dataDir: string; speak: SpeakSample; draw: DrawSample; log: Logger },
  ) {}

  sample(presetId: string, preview: RenderedPreview): Promise<PreviewSample> {
    let sample = this.samples.get(presetId);
    if (!sample) {
      sample = this.load(presetId, preview).catch((error: unknown) => {
        this.samples.delete(presetId);
        throw error;
      });
      this.samples.set(presetId, sample);
    }
    return sample;
  }

  private load(presetId: string, preview: RenderedPreview): Promise<PreviewSample> {
    return preview.kind === 'local-image'
      ? this.loadPicture(presetId, preview)
      : this.loadSpeech(presetId, preview);
  }

  private async loadPicture(
    presetId: string,
    preview: Extract<PresetPreview, { kind: 'local-image' }>,
  ): Promise<PreviewSample> {
    const style = preview.style ? imageStyleByPresetId(preview.style)?.sketch : undefined;
    const key = digest(`${SAMPLE_VERSION}\n${JSON.stringify(style ?? null)}\n${preview.prompt}`).slice(0, 16);
    const file = path.join(this.deps.dataDir, 'preset-previews', `${presetId}-${key}.png`);
    let data: Buffer | null = await readFile(file).catch(() => null);
    if (!data) {
      data = await this.deps.draw(preview.prompt, style);
      await this.store(file, data);
    }
    return { data, mediaType: 'image/png', etag: `"${digest(data).slice(0, 27)}"` };
  }

  private async loadSpeech(
    presetId: string,
    preview: Extract<PresetPreview, { kind: 'local-speech' }>,
  ): Promise<PreviewSample> {
    const text = previewSentence(preview.language);
    const key = digest(`${SAMPLE_VERSION}\n${preview.engine}\n${preview.voice}\n${text}`).slice(0, 16);
    const file = path.join(this.deps.dataDir, 'preset-previews', `${presetId}-${key}.mp3`);
    let data: Buffer | null = await readFile(file).catch(() => null);
    if (!data) {
      data = await this.deps.speak(resolveVoice(preview.engine, preview.voice), text);
      await this.store(file, data);
    }
    return { data, mediaType: 'audio/mpeg', etag: `"${digest(data).slice(0, 27)}"` };
  }

  /** Best effort: without a writable DATA_DIR the sample only lives in memory. */
  private async store(file: string, data: Buffer): Promise<void> {
    try {
      await mkdir(path.dirname(file), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${file}.${process.pid}.partial`;
      await writeFile(partial, data);
      await rename(partial, file);
    } catch (error) {
      this.deps.log.warn('preset preview not cached on disk', {
        file,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
