import type { AuthContext } from '../domain/identity/auth-context.ts';

/** Per-request values shared by middleware and handlers. */
export type AppEnv = {
  /**
   * What the server passes with each request: Node's request and response (from @hono/node-server), and
   * `mcpCall` on the calls the MCP endpoint makes to the routes in-process (never set by a client).
   */
  Bindings: { mcpCall?: true; incoming?: unknown; outgoing?: unknown };
  Variables: {
    requestId: string;
    auth: AuthContext;
  };
};
