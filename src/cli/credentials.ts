import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** What `media login` keeps for one server: the key runs use, and the session the key endpoints need. */
export interface ServerCredentials {
  email: string;
  /** The API key of the person's own team (from sign-in). */
  api_key: string;
  /** Session JWT for the endpoints an API key cannot call (keys); expires. */
  access_token: string | null;
  access_expires_at: string | null;
  /** Keys the CLI created to act for other teams (`--team`), by team id. */
  team_keys: Record<string, string>;
}

interface CredentialsFile {
  version: 1;
  servers: Record<string, ServerCredentials>;
}

/**
 * The user's config directory, as each system has it: `MEDIA_CONFIG_DIR` when set (tests, several
 * accounts), else `%APPDATA%\media`, `~/Library/Application Support/media` or `$XDG_CONFIG_HOME/media`.
 */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MEDIA_CONFIG_DIR) return env.MEDIA_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'media');
  if (process.platform === 'darwin')
    return path.join(os.homedir(), 'Library', 'Application Support', 'media');
  return path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'media');
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configDir(env), 'credentials.json');
}

function readFile(file: string): CredentialsFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { version: 1, servers: {} };
  }
  try {
    const parsed = JSON.parse(text) as CredentialsFile;
    return parsed && typeof parsed.servers === 'object' ? parsed : { version: 1, servers: {} };
  } catch {
    // A damaged file is replaced at the next login rather than stopping every command.
    return { version: 1, servers: {} };
  }
}

/**
 * Writes through a temporary file created with mode 0600 and renamed over the old one, so the key is
 * never readable by others, not even for a moment, and a crash never leaves half a file.
 */
function writeFile(file: string, content: CredentialsFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
}

/** Credentials are kept per server (the base URL), so a local server and production do not mix. */
export function loadCredentials(baseUrl: string, env?: NodeJS.ProcessEnv): ServerCredentials | null {
  return readFile(credentialsPath(env)).servers[baseUrl] ?? null;
}

export function saveCredentials(
  baseUrl: string,
  credentials: ServerCredentials,
  env?: NodeJS.ProcessEnv,
): void {
  const file = credentialsPath(env);
  const content = readFile(file);
  content.servers[baseUrl] = credentials;
  writeFile(file, content);
}

/** Forgets one server's credentials; true when there were some. */
export function removeCredentials(baseUrl: string, env?: NodeJS.ProcessEnv): boolean {
  const file = credentialsPath(env);
  const content = readFile(file);
  if (!content.servers[baseUrl]) return false;
  delete content.servers[baseUrl];
  writeFile(file, content);
  return true;
}
