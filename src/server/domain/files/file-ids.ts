import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** Lower-case RFC 4648 base32 without padding: 5 bits a character. */
export function randomBase32(characters: number): string {
  const bytes = randomBytes(Math.ceil((characters * 5) / 8));
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5 && out.length < characters) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  return out;
}

/**
 * A new file id: `file_` and 24 random base32 characters (120 bits). The public media URL carries the id
 * and needs no other credential, so the id is the capability and must not be guessable. Upload sessions
 * take their id from here too: the session id becomes the file id (spec 2.5).
 */
export function newFileId(): string {
  return `file_${randomBase32(24)}`;
}

/**
 * A fresh blob key under `prefix` (`uploads`: bytes a client put straight into a bucket, not yet checked), spread
 * over 1024 directories by its first two characters.
 */
export function newBlobKey(prefix: 'files' | 'thumbnails' | 'uploads', extension = ''): string {
  const name = randomBase32(26);
  return `${prefix}/${name.slice(0, 2)}/${name}${extension}`;
}
