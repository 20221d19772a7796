import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../client/create-client.ts';
import { json, stubFetch } from '../testing/fake-fetch.ts';
import { fileRecord } from './file-fixture.ts';
import type { PutRequest } from './put-bytes.ts';
import type { UploadDeps } from './upload-file.ts';
import { UploadList } from './upload-list.tsx';
import { createUploadRows, type UploadRows } from './upload-rows.ts';
import { useUploadQueue } from './use-upload-queue.ts';

function Uploader({ deps, folder, rows }: { deps: UploadDeps; folder?: string; rows?: UploadRows }) {
  const uploads = useUploadQueue({ deps, folder, rows });
  return (
    <>
      <input
        aria-label="Files"
        type="file"
        multiple
        onChange={(e) => uploads.add([...(e.target.files ?? [])])}
      />
      <UploadList items={uploads.items} onDismiss={uploads.dismiss} linkFiles={false} />
    </>
  );
}

/** Sessions answer by name: `known.png` is a duplicate, anything else a new session. */
function server() {
  return stubFetch({
    'POST /v2/files/upload-session': ({ body }) => {
      const { filename } = body as { filename: string };
      if (filename === 'known.png') {
        const file = fileRecord({ id: 'file_old', name: 'first-upload.png' });
        return json({
          deduplicated: true,
          file_id: file.id,
          url: file.url,
          session_id: file.id,
          public_url: file.url,
          hash: file.hash,
          file,
        });
      }
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
    // The session's bytes become the file of the session's id (media/<id>/<name>), as the server does.
    'POST /v2/files/import': ({ body }) => {
      const { url, name } = body as { url: string; name: string };
      return json(fileRecord({ id: new URL(url).pathname.split('/')[2]!, name }), { status: 201 });
    },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('the upload queue', () => {
  it('shows a progress bar per file while it goes, and says which file was already there', async () => {
    const fetch = server();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const client = createClient({ baseUrl: 'http://api.test/v2', token: 't' });
    const deps: UploadDeps = {
      client: () => client,
      token: () => 't',
      // Different bytes, different hashes.
      hash: async (blob) => `sha256:${String(blob.size).padStart(64, '0')}`,
      put: async ({ body, onProgress }: PutRequest) => {
        onProgress?.(body.size / 2, body.size);
        await held;
        onProgress?.(body.size, body.size);
        return null;
      },
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Uploader deps={deps} folder="campaign" />
      </QueryClientProvider>,
    );
    await userEvent.upload(screen.getByLabelText('Files'), [
      new File(['0123456789'], 'new.png', { type: 'image/png' }),
      new File(['abc'], 'known.png', { type: 'image/png' }),
    ]);
    const list = screen.getByRole('list', { name: 'Uploads' });
    const bar = await within(list).findByRole('progressbar', { name: 'Uploading new.png' });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '50'));
    const known = within(list).getAllByRole('listitem')[1]!;
    await waitFor(() => expect(known).toHaveTextContent('Already in your files'));
    expect(known).toHaveTextContent('already stored as first-upload.png');

    release();
    const fresh = within(list).getAllByRole('listitem')[0]!;
    await waitFor(() => expect(fresh).toHaveTextContent('Uploaded'));
    expect(within(list).queryByRole('progressbar')).toBeNull();
    // Both asked for a session in the selected folder; only the new one was registered after its PUT.
    expect(
      fetch.callsTo('POST /v2/files/upload-session').map((c) => c.headers.get('x-workspace-id')),
    ).toEqual(['campaign', 'campaign']);
    expect(fetch.callsTo('POST /v2/files/import').map((c) => (c.body as { name: string }).name)).toEqual([
      'new.png',
    ]);
  });

  it('says why a file failed, and lets it be dismissed', async () => {
    server();
    const client = createClient({ baseUrl: 'http://api.test/v2', token: 't' });
    const deps: UploadDeps = {
      client: () => client,
      token: () => 't',
      hash: async () => 'x',
      put: async () => null,
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Uploader deps={deps} />
      </QueryClientProvider>,
    );
    await userEvent.upload(screen.getByLabelText('Files'), new File([], 'empty.png', { type: 'image/png' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'empty.png is empty: there is nothing to upload.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss empty.png' }));
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
  });

  it('keeps its rows for the next visit when they live outside the page, and goes on meanwhile', async () => {
    server();
    const rows = createUploadRows();
    const client = createClient({ baseUrl: 'http://api.test/v2', token: 't' });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const deps: UploadDeps = {
      client: () => client,
      token: () => 't',
      hash: async () => `sha256:${'c'.repeat(64)}`,
      put: () => held.then(() => null),
    };
    const page = () => (
      <QueryClientProvider client={new QueryClient()}>
        <Uploader deps={deps} rows={rows} />
      </QueryClientProvider>
    );
    const first = render(page());
    await userEvent.upload(
      screen.getByLabelText('Files'),
      new File(['xyz'], 'slow.png', { type: 'image/png' }),
    );
    await screen.findByRole('progressbar', { name: 'Uploading slow.png' });
    first.unmount();
    release();
    await waitFor(() => expect(rows.get()[0]?.status).toBe('done'));
    render(page());
    expect(screen.getByRole('list', { name: 'Uploads' })).toHaveTextContent(/slow\.png.*Uploaded/);
  });

  it('sends the bytes of identical files in one drop once, and answers the others as its duplicates', async () => {
    const fetch = server();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const puts: string[] = [];
    const client = createClient({ baseUrl: 'http://api.test/v2', token: 't' });
    const deps: UploadDeps = {
      client: () => client,
      token: () => 't',
      // The same bytes, the same hash, whatever the name.
      hash: async (blob) => `sha256:${(await blob.text()) === 'same' ? 'd'.repeat(64) : 'e'.repeat(64)}`,
      put: async ({ url }: PutRequest) => {
        puts.push(url);
        await held;
        return null;
      },
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Uploader deps={deps} />
      </QueryClientProvider>,
    );
    await userEvent.upload(screen.getByLabelText('Files'), [
      new File(['same'], 'a.png', { type: 'image/png' }),
      new File(['same'], 'b.png', { type: 'image/png' }),
      new File(['same'], 'c.png', { type: 'image/png' }),
    ]);
    release();
    const list = screen.getByRole('list', { name: 'Uploads' });
    const [a, b, c] = within(list).getAllByRole('listitem');
    await waitFor(() => expect(a).toHaveTextContent('Uploaded'));
    await waitFor(() => expect(b).toHaveTextContent('Already in your files'));
    await waitFor(() => expect(c).toHaveTextContent('Already in your files'));
    expect(b).toHaveTextContent('the same bytes as a.png in this drop, stored once as a.png');
    expect(puts).toEqual(['http://storage.test/a.png']);
    expect(fetch.callsTo('POST /v2/files/upload-session')).toHaveLength(1);
    expect(fetch.callsTo('POST /v2/files/import')).toHaveLength(1);
  });

  it('links a duplicate to the stored file and offers to move it into the folder it was dropped into', async () => {
    const stored = fileRecord({ id: 'file_old', name: 'first-upload.png', workspace_id: null });
    const item = {
      key: 1,
      name: 'again.png',
      size: 3,
      status: 'duplicate' as const,
      sent: 3,
      file: stored,
      error: null,
      folder: 'folder_campaign',
    };
    const onAddToFolder = vi.fn(async () => {});
    const { rerender } = render(
      <UploadList
        items={[item]}
        onDismiss={() => {}}
        linkFiles={false}
        folderName={(id) => (id === 'folder_campaign' ? 'Campaign' : undefined)}
        onAddToFolder={onAddToFolder}
      />,
    );
    expect(screen.getByRole('listitem')).toHaveTextContent('already stored as first-upload.png');
    await userEvent.click(screen.getByRole('button', { name: 'Move it into Campaign' }));
    expect(onAddToFolder).toHaveBeenCalledWith(item);
    // Once it is there, the row says so and offers nothing more.
    rerender(
      <UploadList
        items={[{ ...item, file: { ...stored, workspace_id: 'folder_campaign' } }]}
        onDismiss={() => {}}
        linkFiles={false}
        folderName={() => 'Campaign'}
        onAddToFolder={onAddToFolder}
      />,
    );
    expect(screen.getByRole('listitem')).toHaveTextContent(
      'already stored as first-upload.png, in Campaign.',
    );
    expect(screen.queryByRole('button', { name: /Move it into/ })).toBeNull();
  });
});
