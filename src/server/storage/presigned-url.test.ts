import { describe, expect, it } from 'vitest';
import { checkPresignedUpload, presignUploadUrl, uploadSigningKey } from './presigned-url.ts';

const key = uploadSigningKey(Buffer.alloc(32, 7));
const id = 'file_abcdefghijklmnopqrstuvwx';

function parts(url: string) {
  const u = new URL(url);
  return [u.searchParams.get('expires') ?? undefined, u.searchParams.get('signature') ?? undefined] as const;
}

describe('presigned upload URLs', () => {
  const expiresAt = new Date(Date.UTC(2030, 0, 1));
  const url = presignUploadUrl(key, 'https://media.example', id, expiresAt);

  it('points at /uploads/<id> with the expiry in seconds', () => {
    expect(url).toMatch(
      /^https:\/\/media\.example\/uploads\/file_abcdefghijklmnopqrstuvwx\?expires=1893456000&signature=[\w-]{43}$/,
    );
  });

  it('is valid until its expiry, then expired', () => {
    const [expires, signature] = parts(url);
    expect(checkPresignedUpload(key, id, expires, signature, expiresAt.getTime() - 1)).toBe('valid');
    expect(checkPresignedUpload(key, id, expires, signature, expiresAt.getTime())).toBe('expired');
  });

  it('refuses another id, expiry, key or a missing part', () => {
    const [expires, signature] = parts(url);
    const now = expiresAt.getTime() - 1000;
    expect(checkPresignedUpload(key, `${id}x`, expires, signature, now)).toBe('bad_signature');
    expect(checkPresignedUpload(key, id, String(Number(expires) + 1), signature, now)).toBe('bad_signature');
    expect(checkPresignedUpload(uploadSigningKey(Buffer.alloc(32, 8)), id, expires, signature, now)).toBe(
      'bad_signature',
    );
    expect(checkPresignedUpload(key, id, undefined, signature, now)).toBe('bad_signature');
    expect(checkPresignedUpload(key, id, expires, undefined, now)).toBe('bad_signature');
    expect(checkPresignedUpload(key, id, '1e9', signature, now)).toBe('bad_signature');
  });
});
