import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Job } from '../../../../contract/jobs.ts';
import type { Template } from '../../../../contract/templates.ts';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { RenderForm } from './render-form.tsx';

const TEMPLATE: Template = {
  id: 'tpl_starter_title_card',
  name: 'Title card',
  description: '',
  tags: ['title'],
  tool: 'render',
  request: {},
  variables: [
    {
      name: 'title',
      label: 'Title',
      type: 'text',
      required: true,
      default: null,
      description: null,
      choices: null,
    },
    {
      name: 'format',
      label: 'Format',
      type: 'choice',
      required: false,
      default: 'png',
      description: null,
      choices: ['png', 'mp4'],
    },
  ],
  preview_url: null,
  status: 'approved',
  author: null,
  team_id: null,
  use_count: 0,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  approved_at: '2026-01-01T00:00:00Z',
};

const ROUTE = 'POST /v2/templates/tpl_starter_title_card/render';
const job = (id: string) => ({ id, tool: 'render', status: 'queued' }) as Job;

function renderForm() {
  const onCreated = vi.fn();
  renderWithQuery(<RenderForm template={TEMPLATE} onCreated={onCreated} />);
  return { onCreated };
}

const renderButton = () => screen.getByRole('button', { name: 'Render' });

describe('the render form', () => {
  it('asks for the required variables before sending anything', async () => {
    const api = stubFetch({ [ROUTE]: () => json(job('job_1'), { status: 202 }) });
    renderForm();
    await userEvent.click(renderButton());
    expect(await screen.findByText(/required/i)).toBeVisible();
    expect(api.callsTo(ROUTE)).toHaveLength(0);
  });

  it('sends the filled-in values once for a double click, with an Idempotency-Key', async () => {
    let release: () => void = () => {};
    const api = stubFetch({
      [ROUTE]: () => new Promise((resolve) => (release = () => resolve(json(job('job_1'), { status: 202 })))),
    });
    const { onCreated } = renderForm();
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Harbour lights');
    fireEvent.click(renderButton());
    fireEvent.click(renderButton());
    await waitFor(() => expect(api.callsTo(ROUTE)).toHaveLength(1));
    act(() => release());
    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 'job_1' })));
    const [post] = api.callsTo(ROUTE);
    // The choice left at its default is not sent: the server fills it.
    expect(post?.body).toEqual({ variables: { title: 'Harbour lights' } });
    expect(post?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('retries a failed attempt with the same key', async () => {
    let attempts = 0;
    const api = stubFetch({
      [ROUTE]: () =>
        ++attempts === 1 ? apiError(503, 'service_unavailable', 'Busy') : json(job('job_2'), { status: 202 }),
    });
    const { onCreated } = renderForm();
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Again');
    await userEvent.click(renderButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('Busy');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    const keys = api.callsTo(ROUTE).map((call) => call.headers.get('idempotency-key'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
  });

  it('puts a refused variable (422 variables.<name>) at its field', async () => {
    stubFetch({
      [ROUTE]: () =>
        json(
          {
            error: {
              code: 'invalid_request',
              message: 'Variables: variables.title is too long.',
              details: { fields: [{ field: 'variables.title', message: 'is too long', code: 'too_big' }] },
            },
          },
          { status: 422 },
        ),
    });
    renderForm();
    const title = screen.getByRole('textbox', { name: 'Title' });
    await userEvent.type(title, 'Far too long');
    await userEvent.click(renderButton());
    await waitFor(() => expect(title).toHaveAccessibleDescription(/Is too long\./));
    expect(title).toHaveFocus();
  });
});
