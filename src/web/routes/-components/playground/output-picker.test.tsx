import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FileRecord } from '../../../../contract/files.ts';
import type { FilesSpec } from '../../../schema-form/field-spec.ts';
import { type FakeRequest, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { mediaKindOf } from './files-picker.tsx';
import { OutputPicker } from './output-picker.tsx';

function file(id: string, name: string, media_type: string, extra: Partial<FileRecord> = {}): FileRecord {
  return {
    id,
    name,
    media_type,
    size_bytes: 2048,
    hash: null,
    url: `https://e.com/media/${id}/${name}`,
    thumbnail_url: media_type.startsWith('image/') ? `https://e.com/media/${id}/thumbnail.webp` : null,
    workspace_id: null,
    origin: 'upload',
    job_id: null,
    metadata: {},
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    ...extra,
  };
}

const CAT = file('file_cat0000000000000', 'cat.png', 'image/png');
const DOG = file('file_dog0000000000000', 'dog.png', 'image/png', { origin: 'job', size_bytes: 1_500_000 });
const CLIP = file('file_clip000000000000', 'clip.mp4', 'video/mp4');

/** A server with the Files list: answers pages of `files` by the query it is given. */
function filesServer(answer: (request: FakeRequest) => { data: FileRecord[]; next_cursor: string | null }) {
  return stubFetch({
    'GET /v2/openapi.json': () => json({ paths: { '/v2/files': { get: {}, post: {} } } }),
    'GET /v2/files': (request) => json(answer(request)),
  });
}

describe('the Files picker', () => {
  it('lists the person’s files with thumbnail, name, type and size, and picks one by keyboard', async () => {
    const api = filesServer(() => ({ data: [CAT, DOG], next_cursor: null }));
    const onPick = vi.fn();
    renderWithQuery(<OutputPicker onPick={onPick} />);
    const list = await screen.findByRole('list');
    const cat = within(list).getByRole('button', { name: /^Use cat\.png \(image\/png · 2 kB\), Uploaded/ });
    expect(
      within(list).getByRole('button', { name: /^Use dog\.png \(image\/png · 1\.5 MB\), Output/ }),
    ).toBeInTheDocument();
    expect(cat.querySelector('img')).toHaveAttribute('src', CAT.thumbnail_url);
    expect(screen.getByRole('heading', { name: 'Your files' })).toBeInTheDocument();
    cat.focus();
    await userEvent.keyboard('{Enter}');
    expect(onPick).toHaveBeenCalledWith(CAT.url);
    expect(api.callsTo('GET /v2/files')[0]?.url.searchParams.get('media_type')).toBeNull();
  });

  it('asks for the field’s media family, and another when the person switches', async () => {
    const api = filesServer((request) => ({
      data: request.url.searchParams.get('media_type') === 'video/*' ? [CLIP] : [CAT],
      next_cursor: null,
    }));
    renderWithQuery(<OutputPicker onPick={() => {}} initialKind="image" />);
    expect(await screen.findByRole('button', { name: /^Use cat\.png/ })).toBeInTheDocument();
    expect(api.callsTo('GET /v2/files')[0]?.url.searchParams.get('media_type')).toBe('image/*');
    expect(screen.getByRole('button', { name: 'Images' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'Videos' }));
    expect(await screen.findByRole('button', { name: /^Use clip\.mp4 \(video\/mp4/ })).toBeInTheDocument();
    expect(api.callsTo('GET /v2/files').at(-1)?.url.searchParams.get('media_type')).toBe('video/*');
  });

  it('searches by name on the server, and says when nothing matches', async () => {
    const api = filesServer((request) => {
      const q = request.url.searchParams.get('q');
      return { data: q === null ? [CAT, DOG] : q === 'dog' ? [DOG] : [], next_cursor: null };
    });
    renderWithQuery(<OutputPicker onPick={() => {}} />);
    await screen.findByRole('button', { name: /^Use cat\.png/ });
    const search = screen.getByRole('searchbox', { name: 'Search your files by name' });
    await userEvent.type(search, 'dog');
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Use cat\.png/ })).toBeNull());
    expect(screen.getByRole('button', { name: /^Use dog\.png/ })).toBeInTheDocument();
    // Typing pauses before asking: one request for "dog", not one per letter.
    expect(api.callsTo('GET /v2/files').map((c) => c.url.searchParams.get('q'))).toEqual([null, 'dog']);
    await userEvent.clear(search);
    await userEvent.type(search, 'zebra{Enter}');
    expect(await screen.findByText('No files named like “zebra”.')).toBeInTheDocument();
  });

  it('loads more with the cursor of the last page', async () => {
    const api = filesServer((request) =>
      request.url.searchParams.get('cursor') === 'c1'
        ? { data: [CLIP], next_cursor: null }
        : { data: [CAT, DOG], next_cursor: 'c1' },
    );
    renderWithQuery(<OutputPicker onPick={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('button', { name: /^Use clip\.mp4/ })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Use / })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(api.callsTo('GET /v2/files')[1]?.url.searchParams.get('cursor')).toBe('c1');
  });

  it('offers recent job outputs on a server without the Files list', async () => {
    const api = stubFetch({
      'GET /v2/openapi.json': () => json({ paths: { '/v2/jobs': { get: {} } } }),
      'GET /v2/jobs': () =>
        json({
          data: [
            {
              id: 'job_1',
              tool: 'image',
              model: 'local-sketch',
              created_at: new Date().toISOString(),
              output: {
                version: 'v1',
                outputs: [
                  { url: 'https://e.com/media/x/sketch.png', media_type: 'image/png', thumbnail_url: null },
                ],
              },
            },
          ],
          next_cursor: null,
        }),
    });
    const onPick = vi.fn();
    renderWithQuery(<OutputPicker onPick={onPick} />);
    await userEvent.click(
      await screen.findByRole('button', { name: /^Use sketch\.png \(image\/png\), local-sketch/ }),
    );
    expect(onPick).toHaveBeenCalledWith('https://e.com/media/x/sketch.png');
    expect(screen.getByRole('heading', { name: 'Your recent outputs' })).toBeInTheDocument();
    expect(api.callsTo('GET /v2/files')).toHaveLength(0);
  });
});

describe('the media family of a files field', () => {
  const spec = (description: string): FilesSpec => ({
    kind: 'files',
    key: 'files',
    label: 'Files',
    description,
    required: false,
    nullable: false,
    defaultValue: undefined,
    examples: [],
    minItems: undefined,
    maxItems: undefined,
  });

  it('is what the description names alone, else all files', () => {
    expect(mediaKindOf(spec('Source images for editing or reference (max 10).'))).toBe('image');
    expect(mediaKindOf(spec('Start frame (image-to-video), or a video and an audio file (lipsync).'))).toBe(
      'all',
    );
    expect(mediaKindOf(spec('Input media (1 to 10).'))).toBe('all');
  });
});
