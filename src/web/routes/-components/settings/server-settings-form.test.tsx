import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { serverSettingsStore } from '../../../api/server-settings.ts';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { ServerSettingsForm } from './server-settings-form.tsx';

const ME = {
  person: {
    id: '5b0e0c4e-6c1e-4f7a-9a55-0d6f5c1c2a11',
    email: 'ada@example.com',
    display_name: 'Ada',
    avatar_url: null,
    created_at: '2025-01-01T00:00:00Z',
  },
  team: {
    id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    name: 'Ada’s team',
    slug: 'ada',
    personal: true,
    role: 'owner',
  },
  teams: [],
  role: 'owner',
  balance_cents: 1000,
  auth: { kind: 'api_key', api_key_id: 'key_1' },
};

function setup(routes: Parameters<typeof stubFetch>[0] = {}) {
  const server = stubFetch({
    'GET /v2/pricing': () => json({ data: [] }),
    'GET /v2/me': () => json(ME),
    ...routes,
  });
  const onSaved = vi.fn();
  const user = userEvent.setup();
  renderWithQuery(<ServerSettingsForm onSaved={onSaved} />);
  const baseUrl = screen.getByLabelText('Base URL');
  const apiKey = screen.getByLabelText('API key (optional)');
  return { server, onSaved, user, baseUrl, apiKey };
}

describe('API server settings', () => {
  it('starts from this origin + /v2', () => {
    const { baseUrl, apiKey } = setup();
    expect(baseUrl).toHaveValue(`${window.location.origin}/v2`);
    expect(apiKey).toHaveValue('');
  });

  it.each([
    ['', 'Enter the base URL of a v2 server'],
    ['localhost:8787', 'Enter an http:// or https:// URL'],
    ['ftp://files.example.com/v2', 'Enter an http:// or https:// URL'],
    ['not a url', 'Enter an http:// or https:// URL'],
    ['https://user:secret@api.example.com/v2', 'Leave out credentials, query and fragment'],
    ['https://api.example.com/v2?x=1', 'Leave out credentials, query and fragment'],
  ])('refuses %j', async (value, message) => {
    const { server, user, baseUrl, onSaved } = setup();
    await user.clear(baseUrl);
    if (value) await user.type(baseUrl, value);
    await user.click(screen.getByRole('button', { name: 'Test and save' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(baseUrl).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls).toHaveLength(0);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('tests the server and saves it with /v2 added', async () => {
    const { server, user, baseUrl, apiKey, onSaved } = setup();
    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://api.example.com/');
    await user.type(apiKey, 'mk_live_123');
    await user.click(screen.getByRole('button', { name: 'Test and save' }));

    expect(await screen.findByText('Saved. The console now uses this server.')).toBeInTheDocument();
    expect(screen.getByText(/Signed in as ada@example.com/)).toBeInTheDocument();
    expect(server.calls.map((call) => call.url.href)).toEqual([
      'https://api.example.com/v2/pricing',
      'https://api.example.com/v2/me',
    ]);
    expect(server.callsTo('GET /v2/me')[0]?.headers.get('authorization')).toBe('Bearer mk_live_123');
    expect(serverSettingsStore.get()).toEqual({
      baseUrl: 'https://api.example.com/v2',
      apiKey: 'mk_live_123',
    });
    expect(onSaved).toHaveBeenCalledOnce();
  });

  it('does not save a key the server refuses', async () => {
    const { user, apiKey, onSaved } = setup({
      'GET /v2/me': () => apiError(401, 'unauthorized', 'Invalid API key'),
    });
    await user.type(apiKey, 'mk_wrong');
    await user.click(screen.getByRole('button', { name: 'Test and save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The server refused this API key.');
    expect(serverSettingsStore.get()).toEqual({ baseUrl: null, apiKey: null });
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('does not save a server that does not answer', async () => {
    const { user, baseUrl } = setup({
      'GET /v2/pricing': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await user.clear(baseUrl);
    await user.type(baseUrl, 'http://10.0.0.9:8787/v2');
    await user.click(screen.getByRole('button', { name: 'Test and save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'No v2 server answered at http://10.0.0.9:8787/v2',
    );
    expect(serverSettingsStore.get().baseUrl).toBeNull();
  });

  it('resets to the default server and forgets the key', async () => {
    serverSettingsStore.set({ baseUrl: 'https://api.example.com/v2', apiKey: 'mk_live_123' });
    const { user, baseUrl, onSaved } = setup();
    expect(baseUrl).toHaveValue('https://api.example.com/v2');
    await user.click(screen.getByRole('button', { name: 'Reset to default' }));
    await waitFor(() => expect(serverSettingsStore.get()).toEqual({ baseUrl: null, apiKey: null }));
    expect(baseUrl).toHaveValue(`${window.location.origin}/v2`);
    expect(onSaved).toHaveBeenCalledOnce();
  });
});
