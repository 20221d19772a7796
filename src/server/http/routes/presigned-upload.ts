import type { Hono } from 'hono';
import { FileId } from '../../../contract/files.ts';
import { requestBodyStream } from '../../domain/files/receive-bytes.ts';
import { uploadDirect } from '../../domain/files/upload-flow.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { checkPresignedUpload, uploadSigningKey } from '../../storage/presigned-url.ts';
import type { AppEnv } from '../env.ts';
import { requestHeader } from '../request-header.ts';
import { errorBody, respond, respondJson } from '../respond.ts';

/** Browsers on another origin may PUT to a presigned URL, as to a cloud bucket: the URL is the credential. */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'PUT',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '3600',
};

/**
 * `PUT /uploads/{session_id}?expires=&signature=`: the `upload_url` of an upload session, our own store's
 * presigned URL (no bearer). The body streams to storage under the session's rules; the file is registered
 * afterwards with `POST /v2/files/import` and the session's `public_url`. Answers 204. A bad or missing
 * signature is 403; an expired URL or session 404 (as the proxy path); a used session 409.
 */
export function mountPresignedUpload(app: Hono<AppEnv>, s: Services): void {
  const key = uploadSigningKey(s.keys.hashing);
  // Every answer carries CORS, refusals included, so a browser can read why its upload was refused.
  app.use('/uploads/*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(CORS)) c.res.headers.set(name, value);
  });
  app.options('/uploads/:id', (c) => respond(c, 204, null));
  app.put('/uploads/:id', async (c) => {
    const id = c.req.param('id');
    const check = FileId.safeParse(id).success
      ? checkPresignedUpload(key, id, c.req.query('expires'), c.req.query('signature'))
      : 'bad_signature';
    if (check === 'bad_signature') {
      throw new AppError(
        'forbidden',
        'The upload URL is not valid: use the upload_url of an upload session as given.',
      );
    }
    if (check === 'expired') {
      throw new AppError(
        'not_found',
        'The upload URL has expired (sessions last one hour). Start a new session.',
      );
    }
    await uploadDirect(s, id, requestBodyStream(c), requestHeader(c, 'content-length'));
    return respond(c, 204, null);
  });
  app.on(['GET', 'POST', 'PATCH', 'DELETE'], '/uploads/:id', (c) =>
    respondJson(
      c,
      405,
      errorBody('method_not_allowed', `${c.req.method} is not allowed here. Allowed: PUT.`),
      {
        allow: 'PUT, OPTIONS',
      },
    ),
  );
}
