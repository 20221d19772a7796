import { subscribe } from 'node:diagnostics_channel';
import { startFalProtocolServer } from '../src/server/providers/remote/testing/fal-protocol-server.ts';
import { PNG } from '../src/server/providers/remote/testing/fal-replicate-test-media.ts';

/*
 * The fal protocol stand-in in a process of its own, for bench/remote.ts: thousands of jobs in flight
 * must not share a CPU (or an event loop) with the bench's client or the server it measures. Started by
 * `node --import tsx bench/fal-stand-in.ts` with an IPC channel; prints `listening <url>` when ready.
 *
 * Environment: FAL_STAND_IN_KEY (the key it accepts), FAL_STAND_IN_PORT (0: a free one),
 * FAL_FINISH_AFTER_MS (requests finish this long after their submit; unset: 20000). Requests finish by
 * time only (pollsBeforeDone is out of reach), with no concurrency limit, and the output is `out.png`.
 *
 * Over IPC: `{ id, op: 'behaviour', set }` changes knobs (finishAfterMs, neverFinish, latencyMs, ...);
 * `{ id, op: 'stats', ids? }` answers what it saw, for those provider request ids (all when absent).
 * It keeps no request log (the protocol server's `received` would hold every header of every poll),
 * only the arrival times of each request's status calls.
 */

const key = process.env.FAL_STAND_IN_KEY ?? 'bench-fal-key';
const fal = await startFalProtocolServer(key, Number(process.env.FAL_STAND_IN_PORT ?? 0));
fal.files.set('out.png', { body: PNG, contentType: 'image/png' });
fal.behaviour.pollsBeforeDone = Number.MAX_SAFE_INTEGER;
fal.behaviour.finishAfterMs = Number(process.env.FAL_FINISH_AFTER_MS ?? 20_000);
fal.behaviour.concurrency = null;

/** Arrival times (ms since the epoch) of the status calls of each provider request id. */
const statusCalls = new Map<string, number[]>();
const counts = { submits: 0, status: 0, results: 0, cancels: 0, downloads: 0, other: 0 };
const STATUS = /\/requests\/([^/]+)\/status$/;
const REQUEST = /\/requests\/([^/]+)(\/cancel)?$/;
fal.received.push = (...items) => {
  for (const item of items) {
    const status = STATUS.exec(item.path);
    if (status) {
      counts.status++;
      const id = status[1]!;
      const times = statusCalls.get(id) ?? [];
      times.push(Date.now());
      statusCalls.set(id, times);
    } else if (item.path.startsWith('/files/')) counts.downloads++;
    else if (REQUEST.exec(item.path)?.[2]) counts.cancels++;
    else if (REQUEST.test(item.path)) counts.results++;
    else if (item.method === 'POST' && !item.path.startsWith('/storage/')) counts.submits++;
    else counts.other++;
  }
  return 0;
};

// HTTP requests being answered at once, from node's own hooks (the protocol server keeps its http.Server).
let inFlight = 0;
let peakInFlight = 0;
subscribe('http.server.request.start', () => {
  inFlight++;
  peakInFlight = Math.max(peakInFlight, inFlight);
});
subscribe('http.server.response.finish', () => {
  inFlight--;
});

type Message =
  | { id: number; op: 'behaviour'; set: Record<string, unknown> }
  | { id: number; op: 'stats'; ids?: string[]; resetPeak?: boolean };

process.on('message', (message: Message) => {
  if (message.op === 'behaviour') {
    Object.assign(fal.behaviour, message.set);
    process.send?.({ id: message.id, ok: true });
    return;
  }
  const ids = message.ids ?? [...fal.requests.keys()];
  const requests = ids.map((id) => {
    const request = fal.requests.get(id);
    return {
      id,
      createdAt: request?.createdAt ?? null,
      completedAt: request?.completedAt ?? null,
      webhookSent: request?.webhookSent ?? false,
      statusCalls: statusCalls.get(id) ?? [],
    };
  });
  process.send?.({ id: message.id, counts, peakHttpInFlight: peakInFlight, requests });
  if (message.resetPeak) peakInFlight = inFlight;
});
process.on('disconnect', () => {
  void fal.close().then(() => process.exit(0));
});

process.stdout.write(`listening ${fal.url}\n`);
