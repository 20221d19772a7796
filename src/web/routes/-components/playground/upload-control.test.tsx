import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { fileRecord } from '../../../uploads/file-fixture.ts';

/*
 * The upload machinery (hashing in a worker, sessions, progress rows) is not part of the playground's
 * first paint. Its hashing module stands for all of it here (jsdom has no Worker): each render mocks it
 * afresh, and the mock's factory runs only when the machinery is imported, which tells when it loaded.
 */
vi.mock('../../../uploads/put-bytes.ts', () => ({ putBytes: async () => null }));

/** A server with upload sessions: each file is stored under its own name. */
function uploadServer() {
  return stubFetch({
    'GET /v2/openapi.json': () => json({ paths: { '/v2/files/upload-session': { post: {} } } }),
    'POST /v2/files/upload-session': ({ body }) => {
      const { filename } = body as { filename: string };
      return json({
        deduplicated: false,
        session_id: `file_${filename.replace(/\W/g, '')}`,
        upload_url: `http://storage.test/${filename}`,
        public_url: `http://api.test/media/file_${filename.replace(/\W/g, '')}/${filename}`,
        proxy_url: '/v2/files/upload/file_x',
        headers: { 'Content-Type': 'image/png' },
        expires_in: 3600,
        hash: null,
      });
    },
    // The session's bytes become the file of the session's id (media/<id>/<name>), as the server does;
    // another id would be the answer for bytes another tab registered first (a duplicate).
    'POST /v2/files/import': ({ body }) => {
      const { url, name } = body as { url: string; name: string };
      return json(fileRecord({ id: new URL(url).pathname.split('/')[2]!, name, url }), { status: 201 });
    },
  });
}

const png = (name: string) => new File(['not really a png'], name, { type: 'image/png' });

/** A fresh copy of the control, its machinery not loaded yet (as on a first visit). */
async function renderField({ multiple = false } = {}) {
  vi.resetModules();
  // Each render has its own flag, so an import a slower earlier test left pending cannot set this one's.
  const machinery = { loaded: false };
  vi.doMock('../../../uploads/hash-file.ts', () => {
    machinery.loaded = true;
    // A hash per name: these files stand for different pictures (one drop sends the same bytes only once).
    const hashFile = async (file: File) =>
      `sha256:${Buffer.from(file.name).toString('hex').padEnd(64, '0').slice(0, 64)}`;
    return { hashFile };
  });
  const { UploadControl } = await import('./upload-control.tsx');
  const onUploaded = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <UploadControl onUploaded={onUploaded} multiple={multiple} accept="image/*">
        <input aria-label="Image URL" />
      </UploadControl>
    </QueryClientProvider>,
  );
  const upload = await screen.findByLabelText('Upload…');
  // The drop zone holds the field it serves.
  const zone = screen.getByLabelText('Image URL').parentElement!;
  return { upload, zone, onUploaded, machinery };
}

type Field = Awaited<ReturnType<typeof renderField>>;

/** Lets pending imports and effects settle. */
const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 50)));

describe("an input field's Upload button and drop zone", () => {
  it('are there at first paint without the upload machinery, which comes when a file might', async () => {
    uploadServer();
    const { upload, machinery } = await renderField();
    expect(upload).toHaveAttribute('type', 'file');
    expect(screen.getByText('or drop a file here (up to 200 MB each).')).toBeInTheDocument();
    await settle();
    expect(machinery.loaded).toBe(false);

    // The keyboard way: Tab reaches the button (the file input inside its label).
    screen.getByLabelText('Image URL').focus();
    await userEvent.tab();
    expect(upload).toHaveFocus();
    await waitFor(() => expect(machinery.loaded).toBe(true));
  });

  it.each([
    // React hears the pointer entering through pointerover, as a moving pointer sends it.
    ['pointing at Upload', ({ upload }: Field) => fireEvent.pointerOver(upload.parentElement!)],
    [
      'dragging a file over the field',
      ({ zone }: Field) => fireEvent.dragOver(zone, { dataTransfer: { types: ['Files'] } }),
    ],
  ])('start loading the machinery: %s', async (_, gesture) => {
    uploadServer();
    const field = await renderField();
    await settle();
    expect(field.machinery.loaded).toBe(false);
    gesture(field);
    await waitFor(() => expect(field.machinery.loaded).toBe(true));
  });

  it('upload a file chosen before the machinery is here, once it arrives', async () => {
    const api = uploadServer();
    const { upload, onUploaded, machinery } = await renderField();
    expect(machinery.loaded).toBe(false);
    fireEvent.change(upload, { target: { files: [png('first.png')] } });

    await waitFor(() =>
      expect(onUploaded).toHaveBeenCalledWith('http://api.test/media/file_firstpng/first.png'),
    );
    expect(onUploaded).toHaveBeenCalledTimes(1);
    expect(api.callsTo('POST /v2/files/upload-session').map((call) => call.body)).toEqual([
      expect.objectContaining({ filename: 'first.png' }),
    ]);
  });

  it('upload what is dropped before the machinery is here: the first file for a one-file field', async () => {
    const api = uploadServer();
    const { zone, onUploaded, machinery } = await renderField();
    expect(machinery.loaded).toBe(false);
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [png('a.png'), png('b.png')] } });

    await waitFor(() => expect(onUploaded).toHaveBeenCalledWith('http://api.test/media/file_apng/a.png'));
    await settle();
    expect(onUploaded).toHaveBeenCalledTimes(1);
    expect(api.callsTo('POST /v2/files/upload-session')).toHaveLength(1);
  });

  it('upload every file dropped on a field that takes several, each once', async () => {
    const api = uploadServer();
    const { zone, onUploaded } = await renderField({ multiple: true });
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [png('a.png'), png('b.png')] } });
    fireEvent.drop(zone, { dataTransfer: { types: ['Files'], files: [png('c.png')] } });

    await waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(3));
    await settle();
    expect(onUploaded.mock.calls.map(([url]) => url).sort()).toEqual([
      'http://api.test/media/file_apng/a.png',
      'http://api.test/media/file_bpng/b.png',
      'http://api.test/media/file_cpng/c.png',
    ]);
    expect(api.callsTo('POST /v2/files/upload-session')).toHaveLength(3);
  });
});
