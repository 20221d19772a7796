import type { FileRecord } from '../../contract/files.ts';

/** A file record as the server answers it, for the console's tests. */
export function fileRecord(overrides: Partial<FileRecord> = {}): FileRecord {
  const id = overrides.id ?? 'file_1';
  const name = overrides.name ?? 'cat.png';
  return {
    id,
    name,
    media_type: 'image/png',
    size_bytes: 2048,
    hash: `sha256:${'a'.repeat(64)}`,
    url: `http://api.test/media/${id}/${name}`,
    thumbnail_url: null,
    workspace_id: null,
    origin: 'upload',
    job_id: null,
    metadata: { width: 32, height: 32 },
    created_at: '2026-11-24T10:00:00.000Z',
    updated_at: '2026-11-24T10:00:00.000Z',
    ...overrides,
  };
}
