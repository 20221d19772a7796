import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TeamRole } from '../../../../contract/account.ts';
import type { LedgerEntry, LedgerKind } from '../../../../contract/billing.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { BillingPage } from './billing-page.tsx';

const TEAM = 'c0399080-8c70-427a-bb3b-897719ec946b';

function entry(n: number, overrides: Partial<LedgerEntry>): LedgerEntry {
  return {
    id: `led_${n}`,
    team_id: TEAM,
    delta_cents: 0,
    kind: 'hold',
    balance_after_cents: 0,
    job_id: null,
    tool: null,
    model: null,
    folder_id: null,
    api_key_id: null,
    person_id: null,
    source: 'app',
    note: null,
    created_at: `2026-11-25T10:0${n}:00.000Z`,
    ...overrides,
  };
}

const grant = entry(1, {
  kind: 'grant',
  delta_cents: 500,
  balance_after_cents: 500,
  source: 'internal',
  note: 'invoice 118',
});
const hold = entry(2, {
  kind: 'hold',
  delta_cents: -3,
  balance_after_cents: 497,
  job_id: 'job_sketch',
  tool: 'image',
  model: 'local-sketch',
});
const settle = entry(3, {
  kind: 'settle',
  delta_cents: 1,
  balance_after_cents: 498,
  job_id: 'job_sketch',
  tool: 'image',
});
const refund = entry(4, {
  kind: 'refund',
  delta_cents: 1,
  balance_after_cents: 499,
  job_id: 'job_sketch',
  tool: 'image',
  source: 'app',
  note: 'blurry output',
});

/** The page at `/billing`, as the route renders it, with `onKind` recorded. */
function renderBilling(kind?: LedgerKind) {
  const onKind = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const billing = createRoute({
    getParentRoute: () => root,
    path: '/billing',
    component: () => <BillingPage kind={kind} onKind={onKind} />,
  });
  const job = createRoute({ getParentRoute: () => root, path: '/jobs/$jobId', component: () => null });
  const router = createRouter({
    routeTree: root.addChildren([billing, job]),
    history: createMemoryHistory({ initialEntries: ['/billing'] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { onKind };
}

const COMMAND = `npm run credits -- grant ${TEAM} <credits>`;
const balance =
  (balanceCents = 498, url: string | null = null) =>
  () =>
    json({
      team_id: TEAM,
      balance_cents: balanceCents,
      held_cents: 3,
      as_of: '2026-11-25T10:05:00.000Z',
      top_up: { url, command: COMMAND },
    });

/** GET /me for a person of the given role in the team (the rest as the page does not read it). */
const me = (role: TeamRole) => () =>
  json({ team: { id: TEAM, name: 'Acme' }, teams: [], role, balance_cents: 498, auth: { kind: 'session' } });

const member = (name: string, email: string, role: TeamRole) => ({
  user_id: crypto.randomUUID(),
  email,
  display_name: name,
  avatar_url: null,
  role,
  joined_at: '2026-01-01T00:00:00.000Z',
});
const members = () =>
  json({
    data: [
      member('Ada Lovelace', 'ada@example.com', 'owner'),
      member('Bob', 'bob@example.com', 'manager'),
      member('Olga', 'olga@example.com', 'owner'),
      member('Cleo', 'cleo@example.com', 'member'),
    ],
    invitations: [],
  });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Billing page', () => {
  it('shows the balance, what jobs hold, and the ledger newest first with signed changes', async () => {
    stubFetch({
      'GET /v2/billing/balance': balance(),
      'GET /v2/me': me('owner'),
      'GET /v2/billing/ledger': () => json({ data: [refund, settle, hold, grant], next_cursor: null }),
    });
    renderBilling();
    expect(await screen.findByText('498 credits ($4.98)')).toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'Held by unfinished jobs' })).toHaveTextContent('3 credits');
    const table = await screen.findByRole('table', { name: 'Ledger entries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Refund',
      'Charge',
      'Held for a job',
      'Credits added',
    ]);
    // A refund names its job and says why.
    expect(rows[0]).toHaveTextContent('+1 credit');
    expect(rows[0]).toHaveTextContent('blurry output');
    expect(within(rows[0]!).getByRole('link', { name: 'job_sketch' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('−3 credits');
    expect(rows[2]).toHaveTextContent('497 credits');
    expect(rows[2]).toHaveTextContent('Image · local-sketch');
    expect(within(rows[2]!).getByRole('link', { name: 'job_sketch' })).toHaveAttribute(
      'href',
      '/jobs/job_sketch',
    );
    expect(rows[3]).toHaveTextContent('+500 credits');
    expect(rows[3]).toHaveTextContent('invoice 118');
  });

  it('shows older entries on request, asking with the cursor of the page before', async () => {
    const fetch = stubFetch({
      'GET /v2/billing/balance': balance(),
      'GET /v2/me': me('owner'),
      'GET /v2/billing/ledger': ({ url }) =>
        url.searchParams.get('cursor') === 'page-2'
          ? json({ data: [grant], next_cursor: null })
          : json({ data: [settle, hold], next_cursor: 'page-2' }),
    });
    renderBilling();
    await userEvent.click(await screen.findByRole('button', { name: 'Show older entries' }));
    expect(await screen.findByText('invoice 118')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show older entries' })).not.toBeInTheDocument();
    expect(
      fetch.callsTo('GET /v2/billing/ledger').map((call) => call.url.searchParams.get('cursor')),
    ).toEqual([null, 'page-2']);
  });

  it('asks for one kind of entry, and offers all of them back when there is none of it', async () => {
    const fetch = stubFetch({
      'GET /v2/billing/balance': balance(),
      'GET /v2/me': me('owner'),
      'GET /v2/billing/ledger': () => json({ data: [], next_cursor: null }),
    });
    const { onKind } = renderBilling('refund');
    expect(await screen.findByText('No entries of this kind: refund')).toBeInTheDocument();
    expect(fetch.callsTo('GET /v2/billing/ledger')[0]!.url.searchParams.get('kind')).toBe('refund');
    await userEvent.click(screen.getByRole('button', { name: 'Show all entries' }));
    expect(onKind).toHaveBeenLastCalledWith(undefined);
    await userEvent.selectOptions(screen.getByLabelText('Show'), 'Charge');
    expect(onKind).toHaveBeenLastCalledWith('settle');
  });
});

describe('Adding credits', () => {
  const ledger = () => json({ data: [grant], next_cursor: null });

  it("gives an owner the exact command the server's operator runs, when there is no top-up page", async () => {
    stubFetch({
      'GET /v2/billing/balance': balance(40),
      'GET /v2/billing/ledger': ledger,
      'GET /v2/me': me('owner'),
    });
    renderBilling();
    const panel = await screen.findByRole('region', { name: 'Credits are running low' });
    expect(within(panel).getByText(COMMAND)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Copy command' })).toBeInTheDocument();
    expect(within(panel).queryByRole('link')).toBeNull();
  });

  it("links an owner to the operator's top-up page when the server has one", async () => {
    const url = `https://shop.example/credits?team=${TEAM}`;
    stubFetch({
      'GET /v2/billing/balance': balance(5_000, url),
      'GET /v2/billing/ledger': ledger,
      'GET /v2/me': me('owner'),
    });
    renderBilling();
    const panel = await screen.findByRole('region', { name: 'Add credits' });
    expect(within(panel).getByRole('link', { name: /Add credits/ })).toHaveAttribute('href', url);
    expect(within(panel).queryByText(COMMAND)).toBeNull();
  });

  it('tells anyone else that owners add credits, naming them', async () => {
    stubFetch({
      'GET /v2/billing/balance': balance(0, 'https://shop.example/credits'),
      'GET /v2/billing/ledger': ledger,
      'GET /v2/me': me('manager'),
      'GET /v2/team/members': members,
    });
    renderBilling();
    const panel = await screen.findByRole('region', { name: 'Credits are running low' });
    expect(
      await within(panel).findByText(
        'Only an owner of this team can add credits. Ask Ada Lovelace (ada@example.com) or Olga (olga@example.com).',
      ),
    ).toBeInTheDocument();
    expect(within(panel).queryByRole('link')).toBeNull();
    expect(within(panel).queryByText(COMMAND)).toBeNull();
  });
});
