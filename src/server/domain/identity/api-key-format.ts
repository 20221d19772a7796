import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every key starts with this, so leaked keys are easy to recognise and scan for. */
export const API_KEY_PREFIX = 'mcsk_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(bytes: Buffer, length: number): string {
  // Rejection sampling keeps every character uniformly likely.
  let out = '';
  let pool = bytes;
  while (out.length < length) {
    for (const byte of pool) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
    pool = randomBytes(length);
  }
  return out;
}

function checksum(body: string): string {
  let value = crc32(`${API_KEY_PREFIX}${body}`);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** A new key: prefix, 32 random base62 characters (about 190 bits), 6-character CRC32 checksum. */
export function generateApiKey(): string {
  const body = base62(randomBytes(BODY_LENGTH * 2), BODY_LENGTH);
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** True when the text has the shape and a valid checksum, so typos are refused without a database read. */
export function isWellFormedApiKey(token: string): boolean {
  if (!token.startsWith(API_KEY_PREFIX)) return false;
  const rest = token.slice(API_KEY_PREFIX.length);
  if (rest.length !== BODY_LENGTH + CHECKSUM_LENGTH || !/^[0-9A-Za-z]+$/.test(rest)) return false;
  return checksum(rest.slice(0, BODY_LENGTH)) === rest.slice(BODY_LENGTH);
}

/** Keys carry 190 random bits, so a plain SHA-256 is a safe, fast lookup hash. */
export function hashApiKey(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export function displayParts(token: string): { start: string; last4: string } {
  return { start: token.slice(0, API_KEY_PREFIX.length + 6), last4: token.slice(-4) };
}
