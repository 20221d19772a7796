import type { Me } from '../../contract/account.ts';
import { storedValue } from '../storage/stored-value.ts';

/*
 * The team the console works in: one choice for every page and every request. Null is the person's own
 * team, the one the server acts for without `X-Team-Id`; any other team is sent as `X-Team-Id` on every
 * call (api/client.ts) and is part of every query key of team data (`teamScoped`), so a switch never
 * shows another team's cached keys, spend or files.
 *
 * The choice lives in this tab (another tab keeps working in its own team), in the URL as `?team=`, the
 * person's own team included (routes/_app.tsx: a link shared with a colleague who is in that team opens
 * in it, not in the colleague's own), and in localStorage as the team a new tab or a link without
 * `?team=` opens in.
 */

export const REMEMBERED_TEAM_KEY = 'media-console:team';

/**
 * A stored team id. Not checked further here: the sign-in page loads this module (through the API client)
 * and stays free of the contract's checks; a team the person is not in is answered as unknown, and the
 * console then opens in their own (team/enter-team.ts).
 */
const readTeam = (json: unknown): string | null | undefined =>
  json === null || (typeof json === 'string' && json.length > 0 && json.length <= 64) ? json : undefined;

/** The team last chosen in this browser, for the next visit. */
export const rememberedTeam = storedValue<string | null>(REMEMBERED_TEAM_KEY, readTeam, null);

let current: string | null = null;
/** The person's own team, once known: named by its id (in a link) it is still acted for without a header. */
let own: string | null = null;
/** Whether this tab has settled on a team yet (its first page has not, and opens in the remembered one). */
let settled = false;

/** The team this tab acts for, or null for the person's own team. */
export function currentTeamId(): string | null {
  return current;
}

/**
 * The team a page opened without `?team=` is for: this tab's team once it has one (another tab's later
 * choice does not move this one), else the team chosen last in this browser.
 */
export function teamToOpen(): string | null {
  return settled ? current : rememberedTeam.get();
}

/** Works in `teamId` from now on (null: the person's own team), and remembers it for the next visit. */
export function setCurrentTeam(requested: string | null): void {
  settled = true;
  const teamId = requested === own ? null : requested;
  if (teamId === null) rememberedTeam.clear();
  else rememberedTeam.set(teamId);
  current = teamId;
}

/** Back to the person's own team and nothing remembered (sign-out: the next person starts in theirs). */
export function forgetCurrentTeam(): void {
  setCurrentTeam(null);
  settled = false;
  own = null;
}

/** Notes the person's own team (from GET /me), so a link naming it by id acts for it as the own team. */
export function knowOwnTeam(teamId: string): void {
  own = teamId;
}

/** The header that makes a call act for the current team (none for the person's own team). */
export function teamHeaders(): Record<string, string> {
  return current ? { 'x-team-id': current } : {};
}

/**
 * A query key of team data, for the current team: unchanged for the person's own team, led by
 * `{ team }` for another, so prefixes (`['jobs']`) still match within one team and never across.
 */
export function teamScoped<const K extends readonly unknown[]>(key: K): K {
  return (current ? [{ team: current }, ...key] : key) as K;
}

/**
 * The person's own team: the server lists it first (GET /me: "their own personal team first, then in
 * the order they joined"). Other teams may be personal teams too: someone else's.
 */
export function ownTeamId(me: Pick<Me, 'teams' | 'team'>): string {
  return me.teams[0]?.id ?? me.team.id;
}
