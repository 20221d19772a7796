/*
 * What a person reads about a model or provider that cannot run on this server. The API's
 * `unavailable_reason` speaks to operators ("Set FAL_KEY on the server to enable fal."): they read it in the
 * start-up log and the README. Someone using the console can do nothing with it, so the console says only
 * that it is not enabled here.
 */

/** A badge or a line beside a model or provider that cannot run here. */
export const NOT_ENABLED = 'Not enabled on this server';

/** The sentence where a form would otherwise give a price. */
export const MODEL_NOT_ENABLED = 'This model is not enabled on this server: choose another.';

/** "Show 1 model not enabled on this server", "Show 60 models …": the model picker's toggle. */
export function showNotEnabledLabel(count: number): string {
  return `Show ${count} ${count === 1 ? 'model' : 'models'} not enabled on this server`;
}
