import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Me } from '../../contract/account.ts';
import { sessionStore } from '../auth/session.ts';
import { jobKeys } from '../queries/jobs.ts';
import { createAppRouter } from '../router.tsx';
import { apiError, type FakeRequest, json, stubFetch } from '../testing/fake-fetch.ts';
import { forgetCurrentTeam, rememberedTeam } from './current-team.ts';
import { searchForAnotherTeam, sectionOf } from './use-switch-team.ts';

/*
 * The team the console works in, through the real router, routes and API client against a fake fetch:
 * Ada (her own personal team, owner) was invited to Olga's personal team as a member.
 */

const ADA_TEAM = 'a0000000-0000-4000-8000-00000000000a';
const OLGA_TEAM = 'b0000000-0000-4000-8000-00000000000b';
const STRANGERS = 'c0000000-0000-4000-8000-00000000000c';

const teams: Me['teams'] = [
  { id: ADA_TEAM, name: "ada's team", slug: 'ada', personal: true, role: 'owner' },
  { id: OLGA_TEAM, name: "olga's team", slug: 'olga', personal: true, role: 'member' },
];

const BALANCE: Record<string, number> = { [ADA_TEAM]: 1_000, [OLGA_TEAM]: 25 };

/** The team a request acts for, as the server reads it: X-Team-Id, else the person's own. */
const actingFor = (request: FakeRequest) => request.headers.get('x-team-id') ?? ADA_TEAM;

function server() {
  const teamOf = (request: FakeRequest) => teams.find((team) => team.id === actingFor(request));
  return stubFetch({
    'GET /v2/me': (request) => {
      const team = teamOf(request);
      if (!team) return apiError(404, 'not_found', 'No such team.');
      return json({
        person: {
          id: 'd0000000-0000-4000-8000-00000000000d',
          email: 'ada@example.com',
          display_name: 'ada',
          avatar_url: null,
          created_at: '2026-01-01T00:00:00.000Z',
        },
        team,
        teams,
        role: team.role,
        balance_cents: BALANCE[team.id] ?? 0,
        auth: { kind: 'session', api_key_id: null },
      } satisfies Me);
    },
    'GET /v2/billing/balance': (request) =>
      json({
        team_id: actingFor(request),
        balance_cents: BALANCE[actingFor(request)] ?? 0,
        held_cents: 0,
        as_of: '2026-01-01T00:00:00.000Z',
        top_up: { url: null, command: `npm run credits -- grant ${actingFor(request)} <credits>` },
      }),
    'GET /v2/billing/ledger': () => json({ data: [], next_cursor: null }),
    'GET /v2/team/members': () => json({ data: [], invitations: [] }),
  });
}

function openConsoleAt(url: string) {
  sessionStore.set({ token: 'a.b.c', expiresAt: '2099-01-01T00:00:00Z', email: 'ada@example.com' });
  window.history.replaceState(null, '', url);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createAppRouter(queryClient);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, queryClient };
}

// A new test is a new visit: this tab's team goes (localStorage is cleared by the setup).
afterEach(forgetCurrentTeam);

const apiCalls = (calls: FakeRequest[]) => calls.filter((call) => call.url.pathname.startsWith('/v2/'));
/** Waits for the Billing page's "Available" figure to read `credits`. */
const showsAvailable = (credits: RegExp) =>
  waitFor(() => expect(screen.getByRole('article', { name: 'Available' })).toHaveTextContent(credits));

describe('the team the console works in', () => {
  it('opens a link with ?team= in that team: every request of the page acts for it', async () => {
    const api = server();
    openConsoleAt(`/billing?team=${OLGA_TEAM}`);

    await showsAvailable(/25 credits/);
    expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue(OLGA_TEAM);
    const calls = apiCalls(api.calls);
    expect(calls.map((call) => call.url.pathname)).toEqual(
      expect.arrayContaining(['/v2/me', '/v2/billing/balance', '/v2/billing/ledger']),
    );
    for (const call of calls) expect(call.headers.get('x-team-id'), call.url.pathname).toBe(OLGA_TEAM);
  });

  it("switches from the header: the same page, the other team's data, the team in the address", async () => {
    const user = userEvent.setup();
    const api = server();
    const { router } = openConsoleAt('/billing');
    await showsAvailable(/1,000 credits/);

    const switcher = screen.getByRole('combobox', { name: 'Team' });
    expect(
      within(switcher)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(["ada's team (owner, personal)", "olga's team (member)"]);
    const before = api.calls.length;
    await user.selectOptions(switcher, OLGA_TEAM);

    // Her own team's balance was cached and fresh: it must not stand in for the other team's.
    await showsAvailable(/25 credits/);
    expect(router.state.location.pathname).toBe('/billing');
    expect(router.state.location.search).toEqual({ team: OLGA_TEAM });
    const after = apiCalls(api.calls.slice(before));
    expect(after.map((call) => call.url.pathname)).toContain('/v2/billing/balance');
    for (const call of after) expect(call.headers.get('x-team-id'), call.url.pathname).toBe(OLGA_TEAM);

    // Back to her own team: her own balance, her team in the address, and what is asked is asked for her team.
    const back = api.calls.length;
    await user.selectOptions(screen.getByRole('combobox', { name: 'Team' }), ADA_TEAM);
    await showsAvailable(/1,000 credits/);
    await waitFor(() => expect(router.state.location.search).toEqual({ team: ADA_TEAM }));
    for (const call of apiCalls(api.calls.slice(back)))
      expect(actingFor(call), call.url.pathname).toBe(ADA_TEAM);
  });

  it('keeps the team in the links of the console', async () => {
    server();
    const { router } = openConsoleAt(`/billing?team=${OLGA_TEAM}`);
    await showsAvailable(/25 credits/);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Jobs' })).toHaveAttribute(
      'href',
      `/jobs?team=${OLGA_TEAM}`,
    );

    await router.navigate({ to: '/team' });
    await waitFor(() => expect(router.state.location.search).toEqual({ team: OLGA_TEAM }));
  });

  it('names her own team in the address too, so a link she shares opens in her team for a colleague', async () => {
    server();
    const { router } = openConsoleAt('/billing');
    await showsAvailable(/1,000 credits/);
    await waitFor(() => expect(router.state.location.search).toEqual({ team: ADA_TEAM }));
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Jobs' })).toHaveAttribute('href', `/jobs?team=${ADA_TEAM}`);
  });

  it('opens a link naming her own team in it, though she last worked in another', async () => {
    const api = server();
    rememberedTeam.set(OLGA_TEAM);
    const { router } = openConsoleAt(`/billing?team=${ADA_TEAM}`);
    await showsAvailable(/1,000 credits/);
    expect(screen.getByRole('combobox', { name: 'Team' })).toHaveValue(ADA_TEAM);
    expect(router.state.location.search).toEqual({ team: ADA_TEAM });
    for (const call of apiCalls(api.calls)) expect(actingFor(call), call.url.pathname).toBe(ADA_TEAM);
  });

  it("keeps the page's filters on a switch", async () => {
    const user = userEvent.setup();
    server();
    const { router } = openConsoleAt('/billing?kind=grant');
    await showsAvailable(/1,000 credits/);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Team' }), OLGA_TEAM);
    await showsAvailable(/25 credits/);
    expect(router.state.location.search).toEqual({ kind: 'grant', team: OLGA_TEAM });
  });

  it('names only her own personal team "your personal team" on the Team page', async () => {
    server();
    openConsoleAt(`/team?team=${OLGA_TEAM}`);
    expect(await screen.findByText(/olga's team\. You are member\./)).toBeInTheDocument();
    expect(screen.queryByText(/your personal team/)).toBeNull();
  });

  it('switches on the Team page, whose own data does not depend on the address', async () => {
    const user = userEvent.setup();
    server();
    openConsoleAt('/team');
    expect(
      await screen.findByText(/ada's team \(your personal team\)\. You are owner\./),
    ).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Team' }), OLGA_TEAM);
    expect(await screen.findByText(/olga's team\. You are member\./)).toBeInTheDocument();
  });

  it('opens a link to a team she is not in in her own team, and says which in the address', async () => {
    const api = server();
    const { router } = openConsoleAt(`/billing?team=${STRANGERS}`);
    await showsAvailable(/1,000 credits/);
    await waitFor(() => expect(router.state.location.search).toEqual({ team: ADA_TEAM }));
    expect(api.calls.at(-1)?.headers.get('x-team-id')).toBeNull();
  });
});

describe('query keys of team data', () => {
  it("carry the team, so one team's cache never answers for another", async () => {
    server();
    openConsoleAt(`/billing?team=${OLGA_TEAM}`);
    await showsAvailable(/25 credits/);
    expect(jobKeys.list({})).toEqual([{ team: OLGA_TEAM }, 'jobs', 'list', expect.anything()]);
    expect(jobKeys.detail('job_1')).toEqual([{ team: OLGA_TEAM }, 'jobs', 'detail', 'job_1']);
  });
});

describe('a switch of team', () => {
  it('keeps the section and drops an id of the team left (an open job or file)', () => {
    expect(sectionOf('/jobs/job_1')).toBe('/jobs');
    expect(sectionOf('/files/file_1')).toBe('/files');
    expect(sectionOf('/analytics')).toBe('/analytics');
    expect(sectionOf('/')).toBe('/');
  });

  it('keeps the filters that still make sense in the other team, and drops what names the team left', () => {
    expect(
      searchForAnotherTeam({
        team: OLGA_TEAM,
        status: 'failed,cancelled',
        tool: 'video',
        model: 'local-sketch',
        from: '2026-01-01',
        q: 'kite',
        revoked: true,
        folder: 'a0000000-0000-4000-8000-0000000000f1',
        key: 'key_abc',
        job: 'job_1',
        input: 'https://media.example/file_1.png',
        creator: 'member:a0000000-0000-4000-8000-0000000000f2',
        api_key: 'key_a,key_b',
      }),
    ).toEqual({
      status: 'failed,cancelled',
      tool: 'video',
      model: 'local-sketch',
      from: '2026-01-01',
      q: 'kite',
      revoked: true,
    });
    // Filters of what is in no folder or made by no key mean the same in every team.
    expect(searchForAnotherTeam({ folder: 'none', key: 'none' })).toEqual({ folder: 'none', key: 'none' });
  });
});
