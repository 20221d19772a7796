/** While a job is active, the feed asks for changes every second. */
export const ACTIVE_INTERVAL_MS = 1_000;
/**
 * With nothing active it slows to one request every 2 s: a job created elsewhere (the API, another tab)
 * shows up within about 2 s, and an idle answer ("nothing changed since T") costs the server one
 * indexed lookup.
 */
export const IDLE_INTERVALS_MS = [1_000, 2_000] as const;
/** After a failed request it waits a little longer each time, never more than 3 s while the tab is visible. */
export const ERROR_INTERVALS_MS = [1_000, 2_000, 3_000] as const;

export interface PollOutcome {
  /** Some job the feed follows is not finished. */
  active: boolean;
  /** The answer changed something on screen. */
  changed: boolean;
}

export interface PollerOptions {
  /** Poll once at start instead of waiting an interval (the data on screen may be old). */
  pollAtStart?: boolean;
  /** Where visibility is read (tests pass their own). */
  doc?: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>;
  /** Where focus and coming back online are heard (tests pass their own). */
  win?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
}

export interface Poller {
  /** Poll now and start again from the fastest interval (after an action, or when something changed). */
  wake(): void;
  stop(): void;
}

const step = (intervals: readonly number[], index: number) =>
  intervals[Math.min(index, intervals.length - 1)]!;

/**
 * Calls `poll` one request at a time, never overlapping: every second while something is active, every
 * 2 s while nothing is, and not at all while the tab is hidden. Showing the tab, focusing the window or
 * coming back online polls at once (and ends the wait after failures).
 */
export function startPoller(poll: () => Promise<PollOutcome>, options: PollerOptions = {}): Poller {
  const doc = options.doc ?? document;
  const win = options.win ?? window;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idleStep = 0;
  let errorStep = 0;
  let running = false;
  let again = false;
  let stopped = false;

  const hidden = () => doc.visibilityState === 'hidden';

  function schedule(delay: number) {
    clearTimeout(timer);
    timer = undefined;
    if (stopped || hidden()) return;
    timer = setTimeout(tick, delay);
  }

  async function tick() {
    timer = undefined;
    if (stopped || hidden()) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    let delay: number;
    try {
      const outcome = await poll();
      errorStep = 0;
      if (outcome.active || outcome.changed) idleStep = 0;
      else idleStep++;
      delay = outcome.active ? ACTIVE_INTERVAL_MS : step(IDLE_INTERVALS_MS, idleStep);
    } catch {
      delay = step(ERROR_INTERVALS_MS, errorStep++);
    } finally {
      running = false;
    }
    if (again) {
      again = false;
      delay = 0;
    }
    schedule(delay);
  }

  function wake() {
    idleStep = 0;
    errorStep = 0;
    clearTimeout(timer);
    void tick();
  }

  const onVisibility = () => {
    if (hidden()) {
      clearTimeout(timer);
      timer = undefined;
    } else wake();
  };
  doc.addEventListener('visibilitychange', onVisibility);
  const onReturn = () => {
    if (!hidden()) wake();
  };
  win.addEventListener('focus', onReturn);
  win.addEventListener('online', onReturn);

  if (options.pollAtStart) void tick();
  else schedule(IDLE_INTERVALS_MS[0]);

  return {
    wake,
    stop() {
      stopped = true;
      clearTimeout(timer);
      doc.removeEventListener('visibilitychange', onVisibility);
      win.removeEventListener('focus', onReturn);
      win.removeEventListener('online', onReturn);
    },
  };
}
