/*
 * Whether the console is replacing the sign-in page in this document, for its first page to take focus
 * as a new page would (routes/-components/app-shell/use-focus-on-new-page.ts). A module of its own: the
 * sign-in page sets it and must not load the router to do so.
 */
let arrived = false;

export function markArrivalBySignIn(): void {
  arrived = true;
}

/** True once after markArrivalBySignIn(). */
export function takeArrivalBySignIn(): boolean {
  const was = arrived;
  arrived = false;
  return was;
}
