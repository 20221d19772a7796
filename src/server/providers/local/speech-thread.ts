import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AbortError, checkAborted } from './engine-run.ts';
import type { SynthesisRequest } from './speech-synth.ts';
import type { SpeechReply } from './speech-worker.ts';

/*
 * Speech synthesis off the HTTP thread. A WebAssembly run blocks its thread (flite's slt voice: about
 * 0.3 s for 200 characters, 2.5 to 4 s for 2000), so runs happen in worker threads: at most
 * MAX_THREADS at once, kept for IDLE_MS after their last run (compiled engines are reused), terminated
 * at once when their run is aborted.
 */

const MAX_THREADS = 2;
const IDLE_MS = 30_000;

/*
 * From the server bundle (npm start, the image) the worker is the bundle's speech-worker.js, run by plain
 * node. From source it is TypeScript: this bootstrap loads it through tsx, whether the server itself runs
 * under tsx or under vitest (whose loader does not reach worker threads).
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((tsx) => tsx.tsImport(workerData.entry, workerData.entry));
`;

function startWorker(): Worker {
  const bundle = import.meta.serverBundleUrl;
  if (bundle) return new Worker(new URL('./speech-worker.js', bundle));
  const workerData = {
    // The ESM build of tsx's API (the CommonJS one cannot register its loader); require.resolve only
    // knows the CommonJS file, which sits next to it.
    tsx: new URL('./index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api'))).href,
    entry: new URL('./speech-worker.ts', import.meta.url).href,
  };
  return new Worker(BOOTSTRAP, { eval: true, workerData });
}

interface Thread {
  worker: Worker;
  /** Set once it failed, exited or was terminated: it is never handed out again. */
  dead: boolean;
  idleTimer?: NodeJS.Timeout;
  onReply?: (reply: SpeechReply) => void;
  onFailure?: (error: Error) => void;
}

export class SpeechThreads {
  private readonly threads = new Set<Thread>();
  private readonly idle: Thread[] = [];
  private readonly waiting: Array<(thread: Thread) => void> = [];

  /** WAV bytes of one request; an abort stops the run at once (its thread is terminated). */
  async synthesize(request: SynthesisRequest, signal?: AbortSignal): Promise<Buffer> {
    const thread = await this.acquire(signal);
    try {
      return await this.run(thread, request, signal);
    } finally {
      this.release(thread);
    }
  }

  /** Terminates every thread (idle or busy); later calls start new ones. */
  async close(): Promise<void> {
    const all = [...this.threads];
    for (const thread of all) {
      thread.dead = true;
      this.forget(thread);
    }
    await Promise.all(all.map((thread) => thread.worker.terminate()));
  }

  private acquire(signal: AbortSignal | undefined): Promise<Thread> {
    checkAborted(signal);
    const idle = this.idle.pop();
    if (idle) {
      clearTimeout(idle.idleTimer);
      return Promise.resolve(idle);
    }
    if (this.threads.size < MAX_THREADS) return Promise.resolve(this.spawn());
    return new Promise((resolve, reject) => {
      const take = (thread: Thread) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(thread);
      };
      const onAbort = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(new AbortError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  private release(thread: Thread): void {
    const next = this.waiting.shift();
    if (thread.dead) {
      this.threads.delete(thread);
      if (next) next(this.spawn());
      return;
    }
    if (next) {
      next(thread);
      return;
    }
    // An idle thread must not keep the process alive.
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => {
      this.forget(thread);
      thread.dead = true;
      void thread.worker.terminate();
    }, IDLE_MS).unref();
    this.idle.push(thread);
  }

  private spawn(): Thread {
    const worker = startWorker();
    const thread: Thread = { worker, dead: false };
    worker.on('message', (reply: SpeechReply) => thread.onReply?.(reply));
    worker.on('error', (error) => {
      thread.dead = true;
      thread.onFailure?.(error);
    });
    worker.on('exit', (code) => {
      thread.dead = true;
      this.forget(thread);
      thread.onFailure?.(new Error(`The speech thread stopped (exit code ${code}).`));
    });
    this.threads.add(thread);
    return thread;
  }

  /** Drops a thread from the pool (it exited or is being terminated). */
  private forget(thread: Thread): void {
    clearTimeout(thread.idleTimer);
    this.threads.delete(thread);
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
  }

  private run(thread: Thread, request: SynthesisRequest, signal: AbortSignal | undefined): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const done = () => {
        thread.onReply = undefined;
        thread.onFailure = undefined;
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        thread.dead = true;
        void thread.worker.terminate();
        reject(new AbortError(signal?.reason));
      };
      thread.onReply = (reply) => {
        done();
        if (reply.wav) resolve(Buffer.from(reply.wav.buffer, reply.wav.byteOffset, reply.wav.byteLength));
        else reject(new Error(reply.error ?? 'The speech thread answered nothing.'));
      };
      thread.onFailure = (error) => {
        done();
        reject(error);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      thread.worker.ref();
      thread.worker.postMessage(request);
    });
  }
}

/** The threads every local speech run of this process shares (jobs and preset previews). */
export const speechThreads = new SpeechThreads();
