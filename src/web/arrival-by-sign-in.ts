/*
 * Whether a sign-in has just led to the console's next page, for that page to take focus as a new page
 * would (routes/-components/app-shell/use-focus-on-new-page.ts): the console layout mounts anew after the
 * sign-in page, whether the console replaced it (a signed-out first load) or the router did. A module of
 * its own: the sign-in page sets it and must not load the router to do so.
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
