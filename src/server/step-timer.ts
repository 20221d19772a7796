/**
 * The start-up timeline logged with `ready`: milliseconds per step, each since the previous step (or,
 * for steps that run side by side, since the moment they started together).
 */
export function stepTimer() {
  const steps: Record<string, number> = {};
  let last = performance.now();
  return {
    steps,
    since(from: number, name: string) {
      steps[name] = Math.round(performance.now() - from);
    },
    step(name: string) {
      const now = performance.now();
      steps[name] = Math.round(now - last);
      last = now;
    },
    /** The next step counts from here. */
    mark() {
      last = performance.now();
    },
  };
}

export type StepTimer = ReturnType<typeof stepTimer>;
