import type { TeamRole } from '../../../contract/account.ts';
import type { KeyRestrictions } from './key-restrictions.ts';

/** Who is calling, for which team, and how (analytics attribute every charge by these). */
export interface AuthContext {
  kind: 'api_key' | 'session';
  personId: string | null;
  teamId: string;
  role: TeamRole | null;
  /**
   * `member`: the person belongs to the team (or the call uses one of the team's keys). `shared`: a session
   * acting, through `X-Team-Id`, for a team where the person is no member but a key of the team is shared
   * with them; then `role` is null and `sharedKeyIds` lists those keys. Only endpoints for which
   * `acceptsSharedAccess` is true ever see `shared`; every other one answers such a team as unknown (404).
   */
  membership: 'member' | 'shared';
  /** The team's keys shared with the person (for `shared`; empty for members). */
  sharedKeyIds: string[];
  apiKeyId: string | null;
  sessionId: string | null;
  /**
   * How runs started by this caller are attributed: the console (session), the API (key), or an AI
   * agent through the MCP endpoint (`/mcp`), whichever credential it used.
   */
  source: 'app' | 'api' | 'mcp';
  /**
   * A restricted key's rules (absent for sessions and unrestricted keys). Job creation checks tools,
   * models and the concurrency cap against them (create-job.ts); the HTTP layer checks the rest.
   */
  restrictions?: KeyRestrictions;
}
