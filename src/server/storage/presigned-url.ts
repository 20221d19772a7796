import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Presigned upload URLs of our own store: `{PUBLIC_URL}/uploads/<session_id>?expires=<unix s>&signature=<hmac>`.
 * The signature (HMAC-SHA256, base64url) covers the method, the session id and the expiry, so a URL cannot be
 * moved to another session or kept alive longer. It is a capability like an S3 presigned URL: no bearer needed.
 */
export const PRESIGNED_UPLOAD_PATH = '/uploads/';

/** A key for this purpose only, derived from one of the app's keys. */
export function uploadSigningKey(appKey: Uint8Array): Buffer {
  return createHmac('sha256', appKey).update('presigned-upload-url/v1').digest();
}

function signatureOf(key: Buffer, sessionId: string, expires: number): string {
  return createHmac('sha256', key).update(`PUT\n${sessionId}\n${expires}`).digest('base64url');
}

export function presignUploadUrl(key: Buffer, publicUrl: string, sessionId: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const signature = signatureOf(key, sessionId, expires);
  return `${publicUrl}${PRESIGNED_UPLOAD_PATH}${sessionId}?expires=${expires}&signature=${signature}`;
}

export type PresignCheck = 'valid' | 'expired' | 'bad_signature';

/** Checks the signature first (constant time), then the expiry; `now` in milliseconds. */
export function checkPresignedUpload(
  key: Buffer,
  sessionId: string,
  expires: string | undefined,
  signature: string | undefined,
  now = Date.now(),
): PresignCheck {
  if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return 'bad_signature';
  const expected = Buffer.from(signatureOf(key, sessionId, Number(expires)));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'bad_signature';
  return Number(expires) * 1000 <= now ? 'expired' : 'valid';
}
