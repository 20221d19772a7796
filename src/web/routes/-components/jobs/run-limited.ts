export type Settled<T, R> = { item: T; ok: true; value: R } | { item: T; ok: false; error: unknown };

/** Runs `task` on every item, at most `limit` at a time; never rejects, answers each outcome in order. */
export async function runLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<Settled<T, R>[]> {
  const results = new Array<Settled<T, R>>(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      const item = items[index]!;
      try {
        results[index] = { item, ok: true, value: await task(item) };
      } catch (error) {
        results[index] = { item, ok: false, error };
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
