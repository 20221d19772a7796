import { describe, expect, it } from 'vitest';
import {
  base64Bytes,
  DirectUploadRequest,
  FileListQuery,
  FileRecord,
  ImportFileRequest,
  LineageGraph,
  SMALL_FILE_MAX_BYTES,
  UPLOAD_MAX_BYTES,
  UpdateFileRequest,
  UploadSession,
  UploadSessionRequest,
  uploadToSession,
} from './files.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const HEX = 'ab'.repeat(32);

const file = {
  id: 'file_abc',
  name: 'fox.png',
  media_type: 'image/png',
  size_bytes: 1234,
  hash: `sha256:${HEX}`,
  url: 'http://localhost:8787/files/file_abc/fox.png',
  thumbnail_url: null,
  workspace_id: null,
  origin: 'job',
  job_id: 'job_1',
  metadata: { width: 512, height: 512 },
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
};

describe('POST /files/upload-session body (spec 4.5)', () => {
  it('takes a size of 1 to 209715200 bytes', () => {
    expect(UPLOAD_MAX_BYTES).toBe(209_715_200);
    expect(issuesOf(UploadSessionRequest, { size: 0 })).toEqual(['size: too_small']);
    expect(issuesOf(UploadSessionRequest, { size: 1 })).toEqual([]);
    expect(issuesOf(UploadSessionRequest, { size: 209_715_200 })).toEqual([]);
    expect(issuesOf(UploadSessionRequest, { size: 209_715_201 })).toEqual(['size: too_big']);
    expect(issuesOf(UploadSessionRequest, { size: 1.5 })).toEqual(['size: invalid_type']);
  });

  it('takes the hash with or without the sha256: prefix and normalises it', () => {
    expect(parseOk(UploadSessionRequest, { hash: HEX }).hash).toBe(`sha256:${HEX}`);
    expect(parseOk(UploadSessionRequest, { hash: `sha256:${HEX}` }).hash).toBe(`sha256:${HEX}`);
    expect(parseOk(UploadSessionRequest, { hash: HEX.toUpperCase() }).hash).toBe(`sha256:${HEX}`);
    expect(issuesOf(UploadSessionRequest, { hash: HEX.slice(1) })).toEqual(['hash: invalid_format']);
    expect(issuesOf(UploadSessionRequest, { hash: `sha1:${HEX}` })).toEqual(['hash: invalid_format']);
  });

  it('defaults media_type to application/octet-stream', () => {
    expect(parseOk(UploadSessionRequest, {}).media_type).toBe('application/octet-stream');
    expect(parseOk(UploadSessionRequest, { media_type: 'Video/MP4' }).media_type).toBe('video/mp4');
    expect(issuesOf(UploadSessionRequest, { media_type: 'video' })).toEqual(['media_type: invalid_format']);
  });

  it('takes filename and workspace_id', () => {
    expect(parseOk(UploadSessionRequest, { filename: 'a.mp4', workspace_id: 'clips' })).toMatchObject({
      filename: 'a.mp4',
      workspace_id: 'clips',
    });
    expect(issuesOf(UploadSessionRequest, { filename: '' })).toEqual(['filename: too_small']);
    expect(issuesOf(UploadSessionRequest, { filename: 'a/b' })).toEqual(['filename: custom']);
  });
});

describe('upload session (spec 2.5)', () => {
  const session = {
    deduplicated: false,
    session_id: 'file_abc',
    upload_url: 'http://localhost:8787/storage/upload?sig=x',
    public_url: 'http://localhost:8787/files/file_abc/a.mp4',
    proxy_url: '/v2/files/upload/file_abc',
    headers: { 'Content-Type': 'video/mp4' },
    expires_in: 3600,
    hash: `sha256:${HEX}`,
  };

  it('describes a new session', () => {
    expect(issuesOf(UploadSession, session)).toEqual([]);
    expect(issuesOf(UploadSession, { ...session, hash: null })).toEqual([]);
    expect(issuesOf(UploadSession, { ...session, proxy_url: '/v2/files/file_abc' })).toEqual([
      'proxy_url: invalid_format',
    ]);
    expect(issuesOf(UploadSession, { ...session, hash: HEX })).toEqual(['hash: invalid_format']);
  });

  it('describes the existing file when deduplicated', () => {
    const existing = {
      deduplicated: true,
      file_id: 'file_abc',
      url: file.url,
      session_id: 'file_abc',
      public_url: file.url,
      hash: `sha256:${HEX}`,
      file,
    };
    const parsed = parseOk(UploadSession, existing);
    expect(parsed.deduplicated && parsed.file_id).toBe('file_abc');
    expect(issuesOf(UploadSession, { ...existing, file_id: undefined })).toEqual(['file_id: invalid_type']);
  });

  it('takes session ids in the proxy path', () => {
    expect(issuesOf(uploadToSession.params, { session_id: 'file_abc' })).toEqual([]);
    expect(issuesOf(uploadToSession.params, { session_id: '../etc' })).toEqual([
      'session_id: invalid_format',
    ]);
  });
});

describe('POST /files (direct small upload, ours)', () => {
  const b64 = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

  it('takes 1 byte to 512 KiB, base64', () => {
    expect(base64Bytes(b64(SMALL_FILE_MAX_BYTES))).toBe(SMALL_FILE_MAX_BYTES);
    expect(issuesOf(DirectUploadRequest, { filename: 'a.bin', data: '' })).toEqual(['data: custom']);
    expect(issuesOf(DirectUploadRequest, { filename: 'a.bin', data: b64(1) })).toEqual([]);
    expect(issuesOf(DirectUploadRequest, { filename: 'a.bin', data: b64(SMALL_FILE_MAX_BYTES) })).toEqual([]);
    expect(issuesOf(DirectUploadRequest, { filename: 'a.bin', data: b64(SMALL_FILE_MAX_BYTES + 1) })).toEqual(
      ['data: custom'],
    );
  });

  it('refuses what is not base64', () => {
    expect(issuesOf(DirectUploadRequest, { filename: 'a.bin', data: 'ab$d' })).toEqual([
      'data: invalid_format',
    ]);
    expect(issuesOf(DirectUploadRequest, { filename: 'a.bin', data: 'abc' })).toEqual(['data: custom']);
  });

  it('keeps the base64 body of the largest file under 1 MiB of JSON', () => {
    expect(b64(SMALL_FILE_MAX_BYTES).length + 1000).toBeLessThan(1_048_576);
  });
});

describe('file record, import, update, list, lineage', () => {
  it('parses a file record', () => {
    expect(issuesOf(FileRecord, file)).toEqual([]);
    expect(issuesOf(FileRecord, { ...file, origin: 'download' })).toEqual(['origin: invalid_value']);
    expect(issuesOf(FileRecord, { ...file, id: 'abc' })).toEqual(['id: invalid_format']);
  });

  it('imports by http(s) URL', () => {
    expect(issuesOf(ImportFileRequest, { url: 'https://example.com/a.png', name: 'a.png' })).toEqual([]);
    expect(issuesOf(ImportFileRequest, { url: 'file:///etc/passwd' })).toEqual(['url: invalid_format']);
  });

  it('renames or moves, and needs one of them', () => {
    expect(issuesOf(UpdateFileRequest, {})).toEqual(['name: custom']);
    expect(issuesOf(UpdateFileRequest, { name: 'b.png' })).toEqual([]);
    expect(issuesOf(UpdateFileRequest, { workspace_id: null })).toEqual([]);
    expect(issuesOf(UpdateFileRequest, { name: 'x'.repeat(256) })).toEqual(['name: too_big']);
  });

  it('filters the list', () => {
    expect(
      parseOk(FileListQuery, {
        folder: 'none',
        origin: 'upload,job',
        media_type: 'image/*,video/mp4',
        q: 'fox',
      }),
    ).toMatchObject({
      folder: 'none',
      origin: ['upload', 'job'],
      media_type: ['image/*', 'video/mp4'],
    });
    expect(issuesOf(FileListQuery, { origin: 'upload,web' })).toEqual(['origin.1: invalid_value']);
    expect(issuesOf(FileListQuery, { media_type: 'image' })).toEqual(['media_type.0: invalid_format']);
  });

  it('answers lineage as a graph of files and jobs', () => {
    const graph = {
      root: 'file_abc',
      nodes: [
        { kind: 'file', id: 'file_abc', file, deleted: false },
        {
          kind: 'job',
          id: 'job_1',
          job: {
            id: 'job_1',
            tool: 'image',
            model: 'flux-schnell',
            status: 'completed',
            created_at: '2025-01-01T00:00:00Z',
            completed_at: null,
          },
        },
      ],
      edges: [{ from: 'job_1', to: 'file_abc', relation: 'output' }],
      truncated: false,
    };
    expect(issuesOf(LineageGraph, graph)).toEqual([]);
    // A file node says whether the file was deleted (it stays in the graph).
    const [fileNode, jobNode] = graph.nodes;
    const { deleted: _, ...undecided } = fileNode as { deleted: boolean };
    expect(issuesOf(LineageGraph, { ...graph, nodes: [undecided, jobNode] })).toEqual([
      'nodes.0.deleted: invalid_type',
    ]);
    expect(issuesOf(LineageGraph, { ...graph, edges: [{ from: 'a', to: 'b', relation: 'made' }] })).toEqual([
      'edges.0.relation: invalid_value',
    ]);
  });
});
