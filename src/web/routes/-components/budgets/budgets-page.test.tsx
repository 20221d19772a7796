import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TeamRole } from '../../../../contract/account.ts';
import type { Budget } from '../../../../contract/budgets.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { BudgetsPage } from './budgets-page.tsx';

const TEAM = 'c0399080-8c70-427a-bb3b-897719ec946b';

const me = (role: TeamRole) => () =>
  json({
    person: null,
    team: { id: TEAM, name: 'Acme', slug: 'acme', personal: false, role },
    teams: [],
    role,
    balance_cents: 500,
    auth: { kind: 'session', api_key_id: null },
  });

const budget: Budget = {
  id: 'bud_1',
  scope: { type: 'team', id: TEAM },
  scope_name: 'Acme',
  credits: 100,
  period: 'week',
  reset_day: 1,
  mode: 'cap',
  thresholds: [50, 80, 100],
  alert_emails: [],
  alert_webhook_url: null,
  timezone: 'UTC',
  spent: 85,
  remaining: 15,
  period_start: '2026-11-23T00:00:00.000Z',
  resets_at: '2026-11-30T00:00:00.000Z',
  forecast: { runs_out_at: '2026-11-28T06:00:00.000Z', credits_per_day: 21.25 },
  alerts_sent: [50, 80],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={<p>Loading</p>}>
        <BudgetsPage />
      </Suspense>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Budgets page', () => {
  it('shows each budget: progress, spent and left, reset, forecast and what the cap does', async () => {
    stubFetch({
      'GET /v2/me': me('manager'),
      'GET /v2/budgets': () => json({ data: [budget], timezone: 'UTC' }),
    });
    renderPage();
    const card = within(await screen.findByRole('listitem'));
    expect(card.getByRole('heading', { name: 'Whole team' })).toBeTruthy();
    expect(card.getByText('100 credits per week from Monday')).toBeTruthy();
    const bar = card.getByRole('progressbar', { name: 'Whole team: spent this period' });
    expect(bar.getAttribute('aria-valuetext')).toBe('85 of 100 credits (85%)');
    expect(card.getByText('15 left')).toBeTruthy();
    expect(card.getByText('Mon 30 Nov, 00:00')).toBeTruthy();
    expect(card.getByText('At the current rate (21.25 a day) it runs out Sat 28 Nov, 06:00.')).toBeTruthy();
    expect(card.getByText(/new jobs are refused/)).toBeTruthy();
    expect(card.getByText('50% (sent), 80% (sent), 100%')).toBeTruthy();
    expect(card.getByRole('button', { name: 'Edit budget: Whole team' })).toBeTruthy();
    expect(screen.getByLabelText('Team time zone')).toBeTruthy();
  });

  it('lets a member read only, and says so when there are none', async () => {
    stubFetch({
      'GET /v2/me': me('member'),
      'GET /v2/budgets': () => json({ data: [], timezone: 'Europe/Paris' }),
    });
    renderPage();
    expect(await screen.findByRole('region', { name: 'No budgets yet' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /budget/i })).toBeNull();
    expect(screen.queryByLabelText('Team time zone')).toBeNull();
    expect(screen.getByText(/Owners and managers change them/)).toBeTruthy();
  });

  it('checks the form before sending and creates a hard cap', async () => {
    const { calls } = stubFetch({
      'GET /v2/me': me('owner'),
      'GET /v2/budgets': () => json({ data: [], timezone: 'UTC' }),
      'POST /v2/budgets': () => json(budget, { status: 201 }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New budget' }));
    const dialog = within(screen.getByRole('dialog', { name: 'New budget' }));
    const credits = dialog.getByLabelText('Credits per period');
    await user.clear(credits);
    await user.type(credits, '12.5');
    await user.click(dialog.getByRole('button', { name: 'Create budget' }));
    expect(await dialog.findByText('Credits must be a whole number of credits.')).toBeTruthy();
    await user.clear(credits);
    await user.type(credits, '40');
    await user.selectOptions(dialog.getByLabelText('Period', { exact: true }), 'week');
    await user.selectOptions(dialog.getByLabelText('Week starts on'), '3');
    await user.click(dialog.getByRole('radio', { name: /Hard cap/ }));
    await user.click(dialog.getByRole('button', { name: 'Create budget' }));
    await vi.waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      scope: { type: 'team', id: TEAM },
      credits: 40,
      period: 'week',
      reset_day: 3,
      mode: 'cap',
      thresholds: [50, 80, 100],
      alert_emails: [],
      alert_webhook_url: null,
    });
  });
});
