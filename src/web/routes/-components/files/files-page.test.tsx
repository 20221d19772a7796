import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Folder } from '../../../../contract/folders.ts';
import { FilesSearch } from '../../../queries/file-filters.ts';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { fileRecord } from '../../../uploads/file-fixture.ts';
import { FilesPage } from './files-page.tsx';

const FOLDER_ID = 'c0399080-8c70-427a-bb3b-897719ec946b';

function folder(overrides: Partial<Folder> = {}): Folder {
  return {
    id: FOLDER_ID,
    name: 'Campaign',
    slug: 'campaign',
    visibility: 'team',
    team_id: 't',
    created_at: '2026-11-24T10:00:00.000Z',
    updated_at: '2026-11-24T10:00:00.000Z',
    file_count: 0,
    ...overrides,
  };
}

/** The Files page at `url`, under the app's layout route id (`/_app/files`), as the real route tree has it. */
function renderFilesPage(url = '/files') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const app = createRoute({ getParentRoute: () => root, id: '_app', component: Outlet });
  const files = createRoute({
    getParentRoute: () => app,
    path: 'files',
    validateSearch: FilesSearch,
    component: FilesPage,
  });
  const file = createRoute({ getParentRoute: () => app, path: 'files/$fileId', component: () => null });
  const router = createRouter({
    routeTree: root.addChildren([app.addChildren([files, file])]),
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router };
}

beforeEach(() => {
  // jsdom lays nothing out: give the scroll container a viewport's size so cards are virtualised into it.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Files page', () => {
  it('renders only the cards in view of thousands of files, and asks for the next page near the end', async () => {
    const all = Array.from({ length: 5000 }, (_, i) =>
      fileRecord({ id: `file_${i}`, name: `shot-${i}.png` }),
    );
    const fetch = stubFetch({
      'GET /v2/workspaces': () => json({ data: [], next_cursor: null }),
      'GET /v2/files': ({ url }) => {
        const start = Number(url.searchParams.get('cursor') ?? 0);
        const limit = Number(url.searchParams.get('limit'));
        const next = start + limit < all.length ? String(start + limit) : null;
        return json({ data: all.slice(start, start + limit), next_cursor: next });
      },
    });
    renderFilesPage();
    const region = await screen.findByRole('region', { name: 'Files' });
    const cards = within(region).getAllByRole('link');
    expect(cards[0]).toHaveAccessibleName(/shot-0\.png/);
    expect(cards.length).toBeGreaterThan(5);
    expect(cards.length).toBeLessThan(80);
    expect(fetch.callsTo('GET /v2/files')[0]?.url.searchParams.get('limit')).toBe('100');

    // Scrolled to the end of what is loaded: the next page is asked for with the cursor.
    region.scrollTop = 100_000;
    region.dispatchEvent(new Event('scroll'));
    await waitFor(() =>
      expect(fetch.callsTo('GET /v2/files').map((c) => c.url.searchParams.get('cursor'))).toContain('100'),
    );
  });

  it('creates a folder, selects it in the URL, and lists that folder only; focus comes back to New folder', async () => {
    let folders: Folder[] = [];
    const fetch = stubFetch({
      'GET /v2/workspaces': () => json({ data: folders, next_cursor: null }),
      'POST /v2/workspaces': ({ body }) => {
        folders = [folder({ name: (body as { name: string }).name })];
        return json({ workspace: folders[0] }, { status: 201 });
      },
      'GET /v2/files': () => json({ data: [], next_cursor: null }),
    });
    const { router } = renderFilesPage();
    expect(await screen.findByRole('heading', { name: 'No files yet' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Folders' });
    await userEvent.click(within(nav).getByRole('button', { name: 'New folder' }));
    await userEvent.click(within(nav).getByRole('button', { name: 'Create folder' }));
    expect(await within(nav).findByText('Give the folder a name.')).toBeInTheDocument();
    // Escape closes the editor and hands focus back to the button that opened it, not to the page's body.
    await userEvent.keyboard('{Escape}');
    expect(within(nav).getByRole('button', { name: 'New folder' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await userEvent.type(within(nav).getByRole('textbox', { name: 'New folder name' }), 'Campaign{Enter}');
    await waitFor(() => expect(within(nav).getByRole('button', { name: 'New folder' })).toHaveFocus());
    await userEvent.click(await within(nav).findByRole('link', { name: /Campaign/ }));
    await waitFor(() => expect(router.state.location.search).toEqual({ folder: FOLDER_ID }));
    expect(within(nav).getByRole('link', { name: /Campaign/ })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByRole('heading', { name: 'This folder is empty' })).toBeInTheDocument();
    expect(fetch.callsTo('GET /v2/files').at(-1)?.url.searchParams.get('folder')).toBe(FOLDER_ID);
    expect(fetch.callsTo('POST /v2/workspaces').map((c) => c.body)).toEqual([{ name: 'Campaign' }]);
  });

  it('keeps the filters in the URL and says what to do when nothing matches', async () => {
    const fetch = stubFetch({
      'GET /v2/workspaces': () => json({ data: [], next_cursor: null }),
      'GET /v2/files': () => json({ data: [], next_cursor: null }),
    });
    const { router } = renderFilesPage('/files?origin=job');
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Type' }), 'Audio');
    await waitFor(() => expect(router.state.location.search).toEqual({ origin: 'job', type: 'audio' }));
    await waitFor(() =>
      expect(Object.fromEntries(fetch.callsTo('GET /v2/files').at(-1)!.url.searchParams)).toEqual({
        media_type: 'audio/*',
        origin: 'job',
        limit: '100',
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Clear the filters' }));
    await waitFor(() => expect(router.state.location.search).toEqual({}));
  });

  it('renames a folder in place, and shows the server refusing a name; focus comes back to its ✎', async () => {
    let name = 'Campaign';
    const fetch = stubFetch({
      'GET /v2/workspaces': () => json({ data: [folder({ name })], next_cursor: null }),
      [`PATCH /v2/workspaces/${FOLDER_ID}`]: ({ body }) => {
        const wanted = (body as { name: string }).name;
        if (wanted === 'Taken') return apiError(409, 'conflict', 'A folder is already called Taken.');
        name = wanted;
        return json({ workspace: folder({ name }) });
      },
      'GET /v2/files': () => json({ data: [], next_cursor: null }),
    });
    renderFilesPage();
    const nav = await screen.findByRole('navigation', { name: 'Folders' });
    await userEvent.click(await within(nav).findByRole('button', { name: 'Rename folder Campaign' }));
    const field = within(nav).getByRole('textbox', { name: 'Rename Campaign' });
    await userEvent.clear(field);
    await userEvent.type(field, 'Taken');
    await userEvent.click(within(nav).getByRole('button', { name: 'Save' }));
    expect(await within(nav).findByText('A folder is already called Taken.')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, 'Spring launch{Enter}');
    expect(await within(nav).findByRole('link', { name: /Spring launch/ })).toBeInTheDocument();
    await waitFor(() =>
      expect(within(nav).getByRole('button', { name: 'Rename folder Spring launch' })).toHaveFocus(),
    );
    expect(fetch.callsTo(`PATCH /v2/workspaces/${FOLDER_ID}`).map((c) => c.body)).toEqual([
      { name: 'Taken' },
      { name: 'Spring launch' },
    ]);
  });
});

describe('Selecting files', () => {
  const shots = Array.from({ length: 5 }, (_, i) =>
    fileRecord({ id: `file_s${i}`, name: `shot-${i}.png`, size_bytes: 1000 }),
  );
  /** The team's five shots and one folder; moving, deleting and zipping answer as the server does. */
  function library(refuse: string[] = [], extra: Parameters<typeof stubFetch>[0] = {}) {
    const routes: Parameters<typeof stubFetch>[0] = {
      'GET /v2/workspaces': () => json({ data: [folder()], next_cursor: null }),
      'GET /v2/files': () => json({ data: shots, next_cursor: null }),
      'POST /v2/files/archive': ({ body }) =>
        json(
          {
            url: 'http://api.test/archives/token',
            name: 'files.zip',
            file_count: (body as { file_ids: string[] }).file_ids.length,
            size_bytes: 3000,
            expires_in: 600,
          },
          { status: 201 },
        ),
    };
    for (const shot of shots) {
      routes[`PATCH /v2/files/${shot.id}`] = ({ body }) =>
        refuse.includes(shot.id)
          ? apiError(404, 'not_found', `No file ${shot.id}.`)
          : json({ ...shot, workspace_id: (body as { workspace_id: string | null }).workspace_id });
      routes[`DELETE /v2/files/${shot.id}`] = () => new Response(null, { status: 204 });
    }
    return stubFetch({ ...routes, ...extra });
  }
  const box = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` });

  it('selects with a click and a range with Shift+click, then moves them all and says so', async () => {
    const fetch = library();
    renderFilesPage();
    // One user, so the Shift held down is still down at the click.
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select shot-1.png' }));
    await user.keyboard('{Shift>}');
    await user.click(box('shot-3.png'));
    await user.keyboard('{/Shift}');
    const bar = screen.getByRole('toolbar', { name: 'Selected files' });
    expect(bar).toHaveTextContent('3 files selected');
    expect([0, 1, 2, 3, 4].map((i) => (box(`shot-${i}.png`) as HTMLInputElement).checked)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
    await userEvent.selectOptions(within(bar).getByLabelText('Folder'), 'Campaign');
    await userEvent.click(within(bar).getByRole('button', { name: 'Move into Campaign' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Moved 3 files into Campaign.');
    expect(fetch.callsTo('PATCH /v2/files/file_s2').map((c) => c.body)).toEqual([
      { workspace_id: FOLDER_ID },
    ]);
    expect(fetch.calls.filter((c) => c.method === 'PATCH')).toHaveLength(3);
    // Done: the selection is let go.
    expect(screen.queryByRole('toolbar', { name: 'Selected files' })).toBeNull();
  });

  it('selects by keyboard, says which files could not be moved and why, and deletes after asking', async () => {
    const fetch = library(['file_s1']);
    renderFilesPage();
    (await screen.findByRole('checkbox', { name: 'Select shot-0.png' })).focus();
    await userEvent.keyboard(' ');
    box('shot-2.png').focus();
    await userEvent.keyboard('{Shift>} {/Shift}');
    const bar = screen.getByRole('toolbar', { name: 'Selected files' });
    expect(bar).toHaveTextContent('3 files selected');
    await userEvent.click(within(bar).getByRole('button', { name: 'Take out of folders' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Moved 2 of 3 files out of their folders; shot-1.png could not be: No file file_s1.',
    );

    await userEvent.click(box('shot-3.png'));
    await userEvent.click(box('shot-4.png'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 files?' });
    expect(dialog).toHaveTextContent('shot-3.png');
    expect(fetch.calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete 2 files' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Deleted 2 files.');
    expect(fetch.calls.filter((c) => c.method === 'DELETE').map((c) => c.url.pathname)).toEqual([
      '/v2/files/file_s3',
      '/v2/files/file_s4',
    ]);
  });

  it('adds the selection to a folder made for it', async () => {
    const made = folder({ id: '9b7e2f50-6c1d-4e0a-9a55-3f1c2d4e5f60', name: 'Reel' });
    const fetch = library([], {
      'POST /v2/workspaces': () => json({ workspace: made }, { status: 201 }),
    });
    renderFilesPage();
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Select shot-0.png' }));
    await userEvent.click(box('shot-4.png'));
    const bar = screen.getByRole('toolbar', { name: 'Selected files' });
    await userEvent.selectOptions(within(bar).getByLabelText('Folder'), 'New folder…');
    const add = within(bar).getByRole('button', { name: 'Add to the new folder' });
    expect(add).toBeDisabled();
    await userEvent.type(within(bar).getByLabelText('New folder name'), 'Reel');
    await userEvent.click(add);
    expect(await screen.findByRole('status')).toHaveTextContent('Moved 2 files into Reel.');
    expect(fetch.callsTo('POST /v2/workspaces').map((c) => c.body)).toEqual([{ name: 'Reel' }]);
    expect(fetch.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { workspace_id: made.id },
      { workspace_id: made.id },
    ]);
  });

  it('downloads the selection as one zip the server streams, and Escape lets go of it', async () => {
    const fetch = library();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.href);
    });
    renderFilesPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Select all 5 files shown' }));
    const bar = screen.getByRole('toolbar', { name: 'Selected files' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Download as zip' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Downloading files.zip: 5 files.');
    expect(
      fetch.callsTo('POST /v2/files/archive').map((c) => (c.body as { file_ids: string[] }).file_ids),
    ).toEqual([shots.map((s) => s.id)]);
    expect(clicked).toEqual(['http://api.test/archives/token']);
    box('shot-0.png').focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('toolbar', { name: 'Selected files' })).toBeNull();
  });
});

describe('Generated files in the list', () => {
  it("show their prompt on the card and a video's play time", async () => {
    const clip = fileRecord({
      id: 'file_clip',
      name: 'waves-at-dusk-4e7bfb02.mp4',
      media_type: 'video/mp4',
      origin: 'job',
      metadata: { prompt: 'waves at dusk', model: 'local-motion', tool: 'video', duration_seconds: 4.2 },
    });
    stubFetch({
      'GET /v2/workspaces': () => json({ data: [], next_cursor: null }),
      'GET /v2/files': () => json({ data: [clip], next_cursor: null }),
    });
    renderFilesPage('/files?view=list');
    const row = await screen.findByRole('link', { name: /waves-at-dusk-4e7bfb02\.mp4/ });
    expect(row).toHaveTextContent('waves at dusk');
    expect(row).toHaveTextContent('Duration 4.2 s');
  });
});
