import { ApiError } from '../../client/api-error.ts';
import { createClient } from '../../client/create-client.ts';

export type ServerCheck =
  | { ok: true; identity: string | null; note: string | null }
  | { ok: false; message: string };

function reason(error: unknown): string {
  if (error instanceof ApiError) return error.status ? `${error.status} ${error.message}` : error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Tries a server before the console switches to it: the public price catalog proves a v2 server
 * answers; `/me` proves the credentials work. Uses its own client, so a refused key here does not
 * sign anyone out.
 */
export async function checkServer(
  target: { baseUrl: string; apiKey: string | null },
  sessionToken: string | null,
): Promise<ServerCheck> {
  const token = target.apiKey ?? sessionToken;
  const probe = createClient({ baseUrl: target.baseUrl, token });
  try {
    const pricing: { data?: unknown } = await probe.getPricing();
    if (!Array.isArray(pricing?.data)) {
      return { ok: false, message: `${target.baseUrl}/pricing did not answer like a v2 server.` };
    }
  } catch (error) {
    return { ok: false, message: `No v2 server answered at ${target.baseUrl} (${reason(error)}).` };
  }
  if (!token) return { ok: true, identity: null, note: 'The server answered. You will sign in on it.' };
  try {
    const me = await probe.getMe();
    return { ok: true, identity: `${me.person?.email ?? 'Service account'} · ${me.team.name}`, note: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      if (target.apiKey) return { ok: false, message: 'The server refused this API key.' };
      return {
        ok: true,
        identity: null,
        note: 'The server answered, but your session is not valid there: you will be asked to sign in on it.',
      };
    }
    return { ok: false, message: `The server answered, but reading your account failed (${reason(error)}).` };
  }
}
