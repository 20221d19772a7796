import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsBreakdown } from '../../../../contract/analytics.ts';
import { analyticsMeta } from '../../../testing/analytics-meta.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { FilterBar } from './filter-bar.tsx';

const KEY_ROW = {
  key: 'key_live1',
  label: 'Production key',
  other: false,
  spend_cents: 1234,
  charges: 3,
  jobs: 3,
  runs: 3,
  unsuccessful_spend_cents: 0,
  unattributed_spend_cents: 0,
  share: 1,
  previous: null,
};

function breakdown(): AnalyticsBreakdown {
  return {
    data: [KEY_ROW, { ...KEY_ROW, key: 'key_old', label: 'Old key', spend_cents: 10 }],
    meta: { ...analyticsMeta(), dimension: 'api_key' },
  };
}

const QUERY = { from: '2026-10-26', to: '2026-11-25', timezone: 'UTC', api_key: 'key_old', source: 'api' };

describe('analytics filter chips', () => {
  it('offers the keys of the range (not narrowed by the key filter itself) and adds the one chosen', async () => {
    const server = stubFetch({ 'GET /v2/analytics/breakdown': () => json(breakdown()) });
    const onToggle = vi.fn();
    renderWithQuery(
      <FilterBar
        query={QUERY}
        comparison={null}
        filters={{ api_key: 'key_old', source: 'api' }}
        onToggle={onToggle}
        onClear={vi.fn()}
      />,
    );
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Filter by'), 'api_key');
    const value = screen.getByLabelText('Value');
    await waitFor(() => expect(value).toBeEnabled());
    await user.selectOptions(value, 'key_live1');
    await user.click(screen.getByRole('button', { name: 'Add filter' }));
    expect(onToggle).toHaveBeenCalledWith('api_key', 'key_live1');

    const [request] = server.callsTo('GET /v2/analytics/breakdown');
    expect(request?.url.searchParams.get('dimension')).toBe('api_key');
    expect(request?.url.searchParams.has('api_key')).toBe(false);
    expect(request?.url.searchParams.get('source')).toBe('api');
    // A value already chosen is not offered again, and its chip reads the label the server gave it.
    expect(screen.queryByRole('option', { name: /Old key/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Remove filter API key: Old key' })).toBeVisible();
  });

  it('names fixed values without asking the server, and removes a chip with its button', async () => {
    const server = stubFetch({});
    const onToggle = vi.fn();
    renderWithQuery(
      <FilterBar
        query={{ from: '2026-10-26', to: '2026-11-25', timezone: 'UTC', capability: 'image', status: 'none' }}
        comparison={null}
        filters={{ capability: 'image', status: 'failed' }}
        onToggle={onToggle}
        onClear={vi.fn()}
      />,
    );
    const user = userEvent.setup();
    expect(screen.getByRole('option', { name: 'Video' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove filter Status: Failed' }));
    expect(onToggle).toHaveBeenCalledWith('status', 'failed');
    expect(screen.getByRole('button', { name: 'Remove filter Tool: Image' })).toBeVisible();
    expect(server.calls).toHaveLength(0);
  });
});
