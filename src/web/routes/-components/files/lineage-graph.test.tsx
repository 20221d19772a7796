import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LineageGraph } from '../../../../contract/files.ts';
import { freshJob } from '../../../../contract/test-fixtures.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { fileRecord } from '../../../uploads/file-fixture.ts';
import { peekPrefill } from '../playground/form-drafts.ts';
import { renderWithFileRoutes } from './files-test-harness.tsx';
import { LineageView } from './lineage-graph.tsx';

const jobNode = {
  kind: 'job' as const,
  id: 'job_1',
  job: {
    id: 'job_1',
    tool: 'image' as const,
    model: 'local-upscale',
    status: 'completed' as const,
    created_at: '2026-11-24T10:00:00.000Z',
    completed_at: '2026-11-24T10:00:02.000Z',
  },
};

function graph(overrides: { deletedInput?: boolean } = {}): LineageGraph {
  return {
    root: 'file_root',
    nodes: [
      {
        kind: 'file',
        id: 'file_root',
        file: fileRecord({ id: 'file_root', name: 'big-cat.png', origin: 'job' }),
        deleted: false,
      },
      jobNode,
      {
        kind: 'file',
        id: 'file_in',
        file: fileRecord({ id: 'file_in', name: 'cat.png' }),
        deleted: overrides.deletedInput ?? false,
      },
    ],
    edges: [
      { from: 'file_in', to: 'job_1', relation: 'input' },
      { from: 'job_1', to: 'file_root', relation: 'output' },
    ],
    truncated: false,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('LineageView', () => {
  it('draws files and jobs as nodes to follow, in reading order from the input to this file', async () => {
    const { router } = renderWithFileRoutes(<LineageView graph={graph()} />);
    const list = await screen.findByRole('list', { name: 'Lineage, from inputs to outputs' });
    const reachable = within(list)
      .getAllByRole('link')
      .map((link) => link.getAttribute('aria-label'));
    expect(reachable).toEqual(['File cat.png', 'Image job job_1 (local-upscale)', 'This file big-cat.png']);
    expect(within(list).getByRole('link', { name: 'This file big-cat.png' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(list).getByRole('region', { name: 'Job: Image, local-upscale' })).toHaveTextContent(
      'Completed',
    );

    await userEvent.click(within(list).getByRole('link', { name: 'File cat.png' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/files/file_in'));
  });

  it('keeps a deleted input in the graph, marked, and not as a link', async () => {
    renderWithFileRoutes(<LineageView graph={graph({ deletedInput: true })} />);
    const list = await screen.findByRole('list', { name: 'Lineage, from inputs to outputs' });
    expect(within(list).queryByRole('link', { name: 'File cat.png' })).toBeNull();
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('cat.png');
    expect(within(list).getByText('Deleted file')).toBeInTheDocument();
  });

  it('re-runs from a job: the playground opens on its tool and model with the job input waiting', async () => {
    const input = {
      model: 'local-upscale',
      files: [{ url: 'http://api.test/media/file_in/cat.png' }],
      scale: 4,
    };
    const fetch = stubFetch({
      'GET /v2/jobs/job_1': () =>
        json(freshJob({ id: 'job_1', tool: 'image', model: 'local-upscale', input })),
    });
    const { router } = renderWithFileRoutes(<LineageView graph={graph()} />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Re-run from here: Image, local-upscale' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/playground'));
    expect(router.state.location.search).toEqual({ tool: 'image', model: 'local-upscale' });
    expect(peekPrefill('image', 'local-upscale')).toEqual(input);
    expect(fetch.callsTo('GET /v2/jobs/job_1')).toHaveLength(1);
  });

  it('says so when a file has no lineage yet', () => {
    const lone = graph();
    renderWithFileRoutes(<LineageView graph={{ ...lone, nodes: lone.nodes.slice(0, 1), edges: [] }} />);
    return expect(screen.findByText(/Nothing made this file/)).resolves.toBeInTheDocument();
  });
});
