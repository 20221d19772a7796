import type { AuthContext } from './auth.ts';

/** Per-request values shared by middleware and handlers. */
export type AppEnv = {
  Variables: {
    requestId: string;
    auth: AuthContext;
  };
};
