import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { fileRecord } from '../../../uploads/file-fixture.ts';
import { FileActions } from './file-actions.tsx';
import { renderWithFileRoutes } from './files-test-harness.tsx';

const FOLDER = 'c0399080-8c70-427a-bb3b-897719ec946b';
const file = fileRecord({ id: 'file_root', name: 'cat.png', workspace_id: FOLDER });

function folders() {
  return json({
    data: [
      {
        id: FOLDER,
        name: 'Campaign',
        slug: 'campaign',
        visibility: 'team',
        team_id: 't',
        created_at: file.created_at,
        updated_at: file.created_at,
        file_count: 1,
      },
    ],
    next_cursor: null,
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('FileActions', () => {
  it('renames with the name checked first, and moves out of the folder', async () => {
    const fetch = stubFetch({
      'GET /v2/workspaces': folders,
      'PATCH /v2/files/file_root': ({ body }) => json({ ...file, ...(body as object) }),
    });
    renderWithFileRoutes(<FileActions file={file} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename' }));
    const name = screen.getByRole('textbox', { name: 'File name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'a/b.png');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(await screen.findByText('A name cannot contain / or \\.')).toBeInTheDocument();
    expect(fetch.callsTo('PATCH /v2/files/file_root')).toHaveLength(0);
    await userEvent.clear(name);
    await userEvent.type(name, 'kitten.png');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'File name' })).toBeNull());
    expect(screen.getByRole('button', { name: 'Rename' })).toHaveFocus();

    const folder = screen.getByRole('combobox', { name: 'Folder' });
    await waitFor(() => expect(folder).toHaveValue(FOLDER));
    await userEvent.selectOptions(folder, 'Not in a folder');
    await waitFor(() => expect(fetch.callsTo('PATCH /v2/files/file_root')).toHaveLength(2));
    expect(fetch.callsTo('PATCH /v2/files/file_root').map((c) => c.body)).toEqual([
      { name: 'kitten.png' },
      { workspace_id: null },
    ]);
  });

  it('deletes only after a confirmation, then goes back to the folder', async () => {
    let refuse = true;
    const fetch = stubFetch({
      'GET /v2/workspaces': folders,
      'DELETE /v2/files/file_root': () =>
        refuse ? apiError(503, 'unavailable', 'Storage is busy.') : new Response(null, { status: 204 }),
    });
    const { router } = renderWithFileRoutes(<FileActions file={file} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete…' }));
    const confirm = screen.getByRole('region', { name: 'Confirm deletion' });
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(fetch.callsTo('DELETE /v2/files/file_root')).toHaveLength(0);

    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete file' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('Storage is busy.');
    expect(router.state.location.pathname).toBe('/files/file_root');

    refuse = false;
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete file' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/files'));
    expect(router.state.location.search).toEqual({ folder: FOLDER });
  });
});
