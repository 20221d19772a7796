import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { testKey } from './key-test-data.ts';
import { RevealLogDialog } from './reveal-log-dialog.tsx';

const key = testKey();
const person = {
  user_id: '00000000-0000-4000-8000-0000000000b1',
  email: 'ben@example.com',
  display_name: 'Ben',
  avatar_url: null,
};

describe('reveal log', () => {
  it('lists each reveal as a row of a captioned table with column headings', async () => {
    stubFetch({
      [`GET /v2/api-keys/${key.id}/reveals`]: () =>
        json({
          data: [
            {
              id: 'rev_1',
              api_key_id: key.id,
              person,
              revealed_at: '2026-11-21T09:00:00.000Z',
              ip_address: '203.0.113.7',
              user_agent: 'Firefox',
            },
          ],
          next_cursor: null,
        }),
    });
    renderWithQuery(<RevealLogDialog apiKey={key} onClose={vi.fn()} />);

    const table = await screen.findByRole('table', { name: 'Reveals, newest first' });
    const headings = within(table).getAllByRole('columnheader');
    expect(headings.map((h) => h.textContent)).toEqual(['Who', 'When', 'From']);
    expect(headings.every((h) => h.getAttribute('scope') === 'col')).toBe(true);
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('ben@example.com');
    expect(rows[1]).toHaveTextContent('203.0.113.7');
  });
});
