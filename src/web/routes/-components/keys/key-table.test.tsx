import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { KeyTable } from './key-table.tsx';
import { ana, bo, testKey } from './key-test-data.ts';

const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}`) });
const buttonsOf = (name: string) =>
  within(row(name))
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('key table', () => {
  it('offers on each key only what the caller may do with it', () => {
    stubFetch({});
    renderWithQuery(
      <KeyTable
        keys={[
          testKey({ id: 'key_a', name: 'Mine' }),
          testKey({ id: 'key_b', name: 'Machine', revealable: false }),
          testKey({ id: 'key_c', name: 'From Bo', relation: 'shared', owner: bo }),
          testKey({ id: 'key_d', name: 'Old', revoked_at: '2026-11-21T10:00:00.000Z' }),
        ]}
        onAction={vi.fn()}
      />,
    );
    expect(buttonsOf('Mine')).toEqual(['Reveal', 'Edit', 'Rotate', 'Share', 'Reveal log', 'Revoke']);
    expect(buttonsOf('Machine')).toEqual(['Edit', 'Rotate', 'Share', 'Revoke']);
    expect(buttonsOf('From Bo')).toEqual(['Reveal', 'Give back']);
    expect(buttonsOf('Old')).toEqual(['Reveal log']);
    expect(within(row('Old')).getByText(/^Revoked/)).toBeInTheDocument();
    expect(within(row('Mine')).getByText('mcsk_AbC…wxyz')).toBeInTheDocument();
    expect(within(row('Machine')).getByText('Shown once')).toBeInTheDocument();
    expect(within(row('From Bo')).getByText('Shared with you')).toBeInTheDocument();
    expect(within(row('Mine')).getByText('Never')).toBeInTheDocument();
  });

  it('shows the people a key is shared with as avatars', async () => {
    stubFetch({
      'GET /v2/api-keys/key_s/shares': () =>
        json({ owner: ana, shares: [{ ...bo, shared_at: '2026-11-24T18:00:00.000Z' }] }),
    });
    renderWithQuery(
      <KeyTable
        keys={[testKey({ id: 'key_s', name: 'Shared', shared: true, share_count: 1 })]}
        onAction={vi.fn()}
      />,
    );
    expect(await screen.findByRole('img', { name: 'Shared with bo@example.com' })).toHaveTextContent('BO');
  });
});
