import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../client/api-error.ts';
import { createClient } from '../../client/create-client.ts';
import { UPLOAD_MAX_BYTES } from '../../contract/values.ts';
import { json, stubFetch } from '../testing/fake-fetch.ts';
import { fileRecord } from './file-fixture.ts';
import { hashFile } from './hash-file.ts';
import type { PutRequest } from './put-bytes.ts';
import { type UploadDeps, UploadRefused, uploadFile } from './upload-file.ts';

const BYTES = new TextEncoder().encode('not really a png');
const HASH = `sha256:${createHash('sha256').update(BYTES).digest('hex')}`;
const picture = () => new File([BYTES], 'cat.png', { type: 'image/png' });

function newSession() {
  return {
    deduplicated: false,
    session_id: 'file_new',
    upload_url: 'http://storage.test/put/file_new?sig=abc',
    public_url: 'http://api.test/media/file_new/cat.png',
    proxy_url: '/v2/files/upload/file_new',
    headers: { 'Content-Type': 'image/png' },
    expires_in: 3600,
    hash: HASH,
  };
}

/** The real client against a stubbed fetch; PUTs go to `put`, as XMLHttpRequest would send them. */
function depsWith(put: (request: PutRequest) => Promise<unknown>): UploadDeps {
  const client = createClient({ baseUrl: 'http://api.test/v2', token: 'tok_1' });
  return { client: () => client, token: () => 'tok_1', put: vi.fn(put), hash: hashFile };
}

afterEach(() => vi.unstubAllGlobals());

describe('uploadFile', () => {
  it('hashes the bytes, and a known hash answers the existing file without sending anything', async () => {
    const existing = fileRecord({ id: 'file_old', name: 'older-cat.png' });
    const fetch = stubFetch({
      'POST /v2/files/upload-session': () =>
        json({
          deduplicated: true,
          file_id: 'file_old',
          url: existing.url,
          session_id: 'file_old',
          public_url: existing.url,
          hash: HASH,
          file: existing,
        }),
    });
    const deps = depsWith(async () => null);
    const outcome = await uploadFile(picture(), { folder: 'folder-uuid' }, deps);
    expect(outcome).toEqual({ kind: 'duplicate', file: existing, via: null });
    expect(deps.put).not.toHaveBeenCalled();
    const [session] = fetch.callsTo('POST /v2/files/upload-session');
    expect(session?.body).toEqual({
      filename: 'cat.png',
      size: BYTES.length,
      hash: HASH,
      media_type: 'image/png',
    });
    expect(session?.headers.get('x-workspace-id')).toBe('folder-uuid');
  });

  it('PUTs straight to the presigned URL (no bearer) and registers the bytes by their public URL', async () => {
    const stored = fileRecord({ id: 'file_new' });
    const fetch = stubFetch({
      'POST /v2/files/upload-session': () => json(newSession()),
      'POST /v2/files/import': () => json(stored, { status: 201 }),
    });
    const phases: string[] = [];
    const deps = depsWith(async ({ onProgress, body }) => {
      onProgress?.(body.size, body.size);
      return null;
    });
    const outcome = await uploadFile(picture(), { onPhase: (phase) => phases.push(phase) }, deps);
    expect(outcome).toEqual({ kind: 'uploaded', file: stored, via: 'direct' });
    expect(phases).toEqual(['hashing', 'starting', 'uploading', 'registering']);
    const put = vi.mocked(deps.put).mock.calls[0]![0];
    expect(put.url).toBe('http://storage.test/put/file_new?sig=abc');
    expect(put.headers).toEqual({ 'Content-Type': 'image/png' });
    expect(fetch.callsTo('POST /v2/files/import')[0]?.body).toEqual({
      url: 'http://api.test/media/file_new/cat.png',
      name: 'cat.png',
    });
  });

  it('reads the file another tab registered first, with the same bytes, as a duplicate', async () => {
    // Both tabs asked for a session before either upload arrived; the server answers the first one's file.
    const first = fileRecord({ id: 'file_other_tab', name: 'cat.png' });
    stubFetch({
      'POST /v2/files/upload-session': () => json(newSession()),
      'POST /v2/files/import': () => json(first, { status: 201 }),
    });
    const outcome = await uploadFile(
      picture(),
      { folder: 'folder-uuid' },
      depsWith(async () => null),
    );
    expect(outcome).toEqual({ kind: 'duplicate', file: first, via: 'direct' });
  });

  it('goes through the proxy, with the bearer, when storage cannot be reached directly', async () => {
    const stored = fileRecord({ id: 'file_new' });
    const fetch = stubFetch({ 'POST /v2/files/upload-session': () => json(newSession()) });
    const deps = depsWith(async ({ url }) => {
      if (url.startsWith('http://storage.test')) {
        throw new ApiError({ status: 0, code: 'network_error', message: 'blocked' });
      }
      return { file_id: 'file_new', file: stored };
    });
    const outcome = await uploadFile(picture(), {}, deps);
    expect(outcome).toEqual({ kind: 'uploaded', file: stored, via: 'proxy' });
    const proxied = vi.mocked(deps.put).mock.calls[1]![0];
    expect(proxied.url).toBe('http://api.test/v2/files/upload/file_new');
    expect(proxied.headers).toEqual({ 'Content-Type': 'image/png', authorization: 'Bearer tok_1' });
    expect(fetch.callsTo('POST /v2/files/import')).toHaveLength(0);
  });

  it('does not retry through the proxy when the server refused the bytes themselves', async () => {
    stubFetch({ 'POST /v2/files/upload-session': () => json(newSession()) });
    const refused = new ApiError({ status: 422, code: 'invalid_request', message: 'hash mismatch' });
    const deps = depsWith(async () => {
      throw refused;
    });
    await expect(uploadFile(picture(), {}, deps)).rejects.toBe(refused);
    expect(deps.put).toHaveBeenCalledTimes(1);
  });

  it('refuses empty files and files over 200 MB before asking the server', async () => {
    const fetch = stubFetch({});
    const deps = depsWith(async () => null);
    await expect(uploadFile(new File([], 'empty.txt'), {}, deps)).rejects.toThrow(UploadRefused);
    const huge = new File([BYTES], 'huge.mov');
    Object.defineProperty(huge, 'size', { value: UPLOAD_MAX_BYTES + 1 });
    await expect(uploadFile(huge, {}, deps)).rejects.toThrow(/at most 200 MB/);
    expect(fetch.calls).toHaveLength(0);
  });
});
