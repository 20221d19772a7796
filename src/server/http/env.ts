import type { AuthContext } from '../domain/identity/auth-context.ts';

/** Per-request values shared by middleware and handlers. */
export type AppEnv = {
  /**
   * What the server passes with each request: Node's request and response (from @hono/node-server), and
   * `mcpCall` on the calls the MCP endpoint makes to the routes in-process (never set by a client), with
   * `clientAddress`, the address of the agent's request (an in-process call has no socket of its own).
   */
  Bindings: { mcpCall?: true; clientAddress?: string; incoming?: unknown; outgoing?: unknown };
  Variables: {
    requestId: string;
    auth: AuthContext;
  };
};
