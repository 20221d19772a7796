import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'tesseract.js';

/** One line of text tesseract read, with its confidence 0..100. */
export interface OcrLine {
  text: string;
  confidence: number;
}

/** An unused worker is stopped after this long, so an idle server gives its memory back. */
const IDLE_MS = 120_000;

let worker: Promise<Worker> | null = null;
let busy = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** English LSTM data of @tesseract.js-data/eng, read from disk: OCR never downloads anything. */
function langPath(): string {
  const manifest = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  return path.join(path.dirname(manifest), '4.0.0_best_int');
}

async function startWorker(): Promise<Worker> {
  // Imported here, with the first OCR, rather than with the server's code at every start.
  const { createWorker, OEM, PSM } = await import('tesseract.js');
  const created = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: langPath(),
    gzip: true,
    cacheMethod: 'none',
    logger: () => {},
  });
  // Sparse text finds captions and titles scattered over a frame (the automatic layout misses some);
  // a fixed resolution keeps tesseract from guessing one and warning about it.
  await created.setParameters({ tessedit_pageseg_mode: PSM.SPARSE_TEXT, user_defined_dpi: '72' });
  return created;
}

/**
 * Lines of text in a picture. One tesseract worker (a worker thread, slow to start) is made on first use
 * and shared by every job; it stops after IDLE_MS unused, or at `closeOcr`.
 */
export async function readTextLines(image: Buffer): Promise<OcrLine[]> {
  clearTimeout(idleTimer);
  busy += 1;
  try {
    worker ??= startWorker().catch((error: unknown) => {
      worker = null;
      throw error;
    });
    const { data } = await (await worker).recognize(image, {}, { blocks: true });
    return (data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((paragraph) =>
        paragraph.lines.map((line) => ({ text: line.text.trim(), confidence: line.confidence })),
      ),
    );
  } finally {
    busy -= 1;
    if (busy === 0) {
      idleTimer = setTimeout(() => void closeOcr(), IDLE_MS);
      idleTimer.unref();
    }
  }
}

/** Stops the shared OCR worker (its thread keeps the process alive): call on shutdown and after tests. */
export async function closeOcr(): Promise<void> {
  clearTimeout(idleTimer);
  const current = worker;
  worker = null;
  const started = await current?.catch(() => null);
  await started?.terminate();
}
