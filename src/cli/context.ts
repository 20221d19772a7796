import os from 'node:os';
import { type Client, createClient } from '../client/create-client.ts';
import { loadCredentials, type ServerCredentials, saveCredentials } from './credentials.ts';
import { CliError, EXIT } from './exit-codes.ts';
import { createOutput, type Output } from './output.ts';

export const CLI_VERSION = '0.1.0';
export const DEFAULT_BASE_URL = 'http://localhost:8787';
/** Names the CLI in the server's logs; runs from the CLI are recorded with source `api`. */
export const USER_AGENT = `media-cli/${CLI_VERSION} (node ${process.versions.node}; ${process.platform})`;

/** The options every command accepts (program-level flags). */
export interface GlobalOptions {
  baseUrl?: string;
  apiKey?: string;
  team?: string;
  json?: boolean;
  verbose?: boolean;
}

export interface Context {
  /** The server root, without `/v2`: the key of the stored credentials. */
  root: string;
  output: Output;
  verbose: boolean;
  /** The client with the key this command acts with (throws "not signed in" when there is none). */
  api(): Promise<Client>;
  /** The API key `api()` uses. */
  apiKey(): Promise<string>;
  /** The client with the stored session, for the endpoints an API key cannot call (keys). */
  session(): Client;
  /** A client with this token (a key being checked before it is stored). */
  withToken(token: string): Client;
  /** A client with no credentials (sign-in, pricing). */
  anonymous(): Client;
  credentials(): ServerCredentials | null;
  /** A fetch with the CLI's user agent and `--verbose` logging, for the bytes the typed client does not carry. */
  fetch: typeof fetch;
}

/** `http://host:8787/v2/` and `http://host:8787` name the same server. */
export function normaliseRoot(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(
      `Not a URL: ${url}. Give the server's address, for example ${DEFAULT_BASE_URL}.`,
      EXIT.refused,
    );
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '').replace(/\/v2$/, '')}`;
}

function verboseFetch(verbose: boolean, output: Output): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('user-agent', USER_AGENT);
    const method = init?.method ?? 'GET';
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const started = performance.now();
    if (verbose) output.note(`> ${method} ${url}`);
    const response = await fetch(input, { ...init, headers });
    if (verbose) {
      const ms = Math.round(performance.now() - started);
      const id = response.headers.get('x-request-id');
      output.note(`< ${response.status} ${method} ${url} ${ms} ms${id ? ` request ${id}` : ''}`);
    }
    return response;
  };
}

export function createContext(options: GlobalOptions, env: NodeJS.ProcessEnv = process.env): Context {
  const root = normaliseRoot(options.baseUrl ?? env.MEDIA_BASE_URL ?? DEFAULT_BASE_URL);
  const output = createOutput({ json: options.json });
  const verbose = options.verbose === true;
  const doFetch = verboseFetch(verbose, output);
  const credentials = () => loadCredentials(root, env);
  const make = (token: string | null, team?: string) =>
    createClient({
      baseUrl: `${root}/v2`,
      token,
      fetch: doFetch,
      ...(team ? { headers: () => ({ 'x-team-id': team }) } : {}),
    });

  function sessionToken(): string {
    const stored = credentials();
    if (
      !stored?.access_token ||
      (stored.access_expires_at && Date.parse(stored.access_expires_at) <= Date.now())
    ) {
      throw new CliError(
        `This needs a signed-in session on ${root}: run \`media login\` (an API key alone cannot do it).`,
        EXIT.auth,
      );
    }
    return stored.access_token;
  }

  /** A key for another of the person's teams: one created for it earlier, or a new one made now. */
  async function teamKey(team: string): Promise<string> {
    const stored = credentials();
    if (!stored) throw new CliError('`--team` needs `media login` first.', EXIT.auth);
    const me = await make(stored.api_key).getMe();
    const chosen = me.teams.find((t) => t.id === team || t.slug === team || t.name === team);
    if (!chosen) {
      const names = me.teams.map((t) => t.slug).join(', ');
      throw new CliError(`You are not in a team called ${team}. Your teams: ${names}.`, EXIT.refused);
    }
    if (chosen.id === me.team.id) return stored.api_key;
    const known = stored.team_keys[chosen.id];
    if (known) return known;
    // Keys are made with the session, for the chosen team (X-Team-Id), and kept for next time.
    const created = await make(sessionToken(), chosen.id).createApiKey({
      body: { name: `media CLI on ${os.hostname()}`.slice(0, 100), revealable: false },
    });
    saveCredentials(
      root,
      { ...stored, team_keys: { ...stored.team_keys, [chosen.id]: created.api_key } },
      env,
    );
    return created.api_key;
  }

  return {
    root,
    output,
    verbose,
    fetch: doFetch,
    credentials,
    session: () => make(sessionToken()),
    anonymous: () => make(null),
    withToken: (token) => make(token),
    api: async () => make(await apiKey()),
    apiKey,
  };

  /** The key this command acts with: `--api-key`, MEDIA_API_KEY, or the stored one (for `--team`, that team's). */
  async function apiKey(): Promise<string> {
    const explicit = options.apiKey ?? env.MEDIA_API_KEY;
    if (explicit) {
      if (options.team) {
        throw new CliError(
          'An API key acts for its own team: drop `--team`, or sign in with `media login`.',
          EXIT.refused,
        );
      }
      return explicit;
    }
    const stored = credentials();
    if (!stored) {
      throw new CliError(
        `Not signed in to ${root}: run \`media login\`, or set MEDIA_API_KEY (or pass --api-key).`,
        EXIT.auth,
      );
    }
    return options.team ? await teamKey(options.team) : stored.api_key;
  }
}
