import type { AuthContext } from '../domain/identity/auth-context.ts';

/** Per-request values shared by middleware and handlers. */
export type AppEnv = {
  Variables: {
    requestId: string;
    auth: AuthContext;
  };
};
