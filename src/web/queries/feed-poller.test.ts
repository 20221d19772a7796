import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type PollOutcome, startPoller } from './feed-poller.ts';

/** A document whose visibility the test sets. */
function fakeDocument() {
  const target = new EventTarget();
  const doc = {
    visibilityState: 'visible' as DocumentVisibilityState,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    set(state: DocumentVisibilityState) {
      doc.visibilityState = state;
      target.dispatchEvent(new Event('visibilitychange'));
    },
  };
  return doc;
}

/** Poll times (ms since start) with the outcome each answers. */
function recorder(outcome: () => PollOutcome | Promise<PollOutcome>) {
  const start = Date.now();
  const times: number[] = [];
  const poll = vi.fn(async () => {
    times.push(Date.now() - start);
    return outcome();
  });
  return { poll, times };
}

describe('the feed poller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls every second while something is active', async () => {
    const { poll, times } = recorder(() => ({ active: true, changed: true }));
    const poller = startPoller(poll, { doc: fakeDocument() as unknown as Document });
    await vi.advanceTimersByTimeAsync(5_500);
    expect(times).toEqual([1000, 2000, 3000, 4000, 5000]);
    poller.stop();
  });

  it('slows to every 2 s while nothing is active, so jobs made elsewhere show up within about 2 s', async () => {
    const { poll, times } = recorder(() => ({ active: false, changed: false }));
    const poller = startPoller(poll, { doc: fakeDocument() as unknown as Document });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(times).toEqual([1000, 3000, 5000, 7000, 9000]);
    poller.stop();
  });

  it('stops while the tab is hidden and polls at once when it shows again', async () => {
    const doc = fakeDocument();
    const { poll, times } = recorder(() => ({ active: true, changed: false }));
    const poller = startPoller(poll, { doc: doc as unknown as Document });
    await vi.advanceTimersByTimeAsync(2_500);
    doc.set('hidden');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(times).toEqual([1000, 2000]);
    doc.set('visible');
    await vi.advanceTimersByTimeAsync(0);
    expect(times).toEqual([1000, 2000, 62500]);
    poller.stop();
  });

  it('never runs two polls at once', async () => {
    let release: (() => void) | undefined;
    let inFlight = 0;
    let most = 0;
    const poll = vi.fn(async () => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      inFlight--;
      return { active: true, changed: false };
    });
    const poller = startPoller(poll, { doc: fakeDocument() as unknown as Document, pollAtStart: true });
    poller.wake();
    poller.wake();
    await vi.advanceTimersByTimeAsync(10);
    release?.();
    await vi.advanceTimersByTimeAsync(10);
    release?.();
    await vi.advanceTimersByTimeAsync(10);
    expect(most).toBe(1);
    expect(poll).toHaveBeenCalledTimes(2);
    poller.stop();
  });

  it('waits longer after each failure, but never more than 3 s', async () => {
    const { poll, times } = recorder(() => {
      throw new Error('offline');
    });
    const poller = startPoller(poll, { doc: fakeDocument() as unknown as Document });
    await vi.advanceTimersByTimeAsync(13_000);
    expect(times).toEqual([1000, 2000, 4000, 7000, 10000, 13000]);
    poller.stop();
  });

  it('polls at once when the window regains focus or the browser comes back online', async () => {
    const win = new EventTarget();
    const { poll, times } = recorder(() => {
      throw new Error('offline');
    });
    const poller = startPoller(poll, {
      doc: fakeDocument() as unknown as Document,
      win: win as unknown as Window,
    });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(times).toEqual([1000, 2000]);
    win.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    win.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(times).toEqual([1000, 2000, 2500, 2500]);
    poller.stop();
  });

  it('stops for good', async () => {
    const { poll } = recorder(() => ({ active: true, changed: false }));
    const poller = startPoller(poll, { doc: fakeDocument() as unknown as Document });
    poller.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(poll).not.toHaveBeenCalled();
  });
});
