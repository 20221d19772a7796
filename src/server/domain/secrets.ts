import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Keys derived from the one application secret, each for one purpose. */
export interface AppKeys {
  sessionSigning: Uint8Array;
  encryption: Buffer;
  /** Keys HMACs of short secrets (sign-in codes) so a database leak does not reveal them. */
  hashing: Buffer;
}

/** The configured APP_SECRET, or one generated once into DATA_DIR (readable only by this user). */
export async function loadAppSecret(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, 'app-secret');
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
    const secret = randomBytes(32).toString('base64url');
    await fs
      .writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' })
      .catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
    return (await fs.readFile(file, 'utf8')).trim();
  }
}

export function deriveKeys(secret: string): AppKeys {
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', secret, 'media-console', purpose, 32));
  return {
    sessionSigning: new Uint8Array(derive('session-jwt')),
    encryption: derive('api-key-encryption'),
    hashing: derive('otp-hmac'),
  };
}
