import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Link,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { markArrivalBySignIn } from '../../../auth/auth.ts';
import { useFocusOnNewPage } from './use-focus-on-new-page.ts';

function renderPages(url: string) {
  const root = createRootRoute({
    component: function Layout() {
      useFocusOnNewPage();
      return (
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      );
    },
  });
  const list = createRoute({
    getParentRoute: () => root,
    path: '/templates',
    component: () => (
      <>
        <h1>Templates</h1>
        <Link to="/templates/$templateId" params={{ templateId: 'title-card' }}>
          Title card
        </Link>
        <Link to="/settings">Settings</Link>
      </>
    ),
  });
  const one = createRoute({
    getParentRoute: () => root,
    path: '/templates/$templateId',
    component: () => <h1>Title card</h1>,
  });
  const settings = createRoute({
    getParentRoute: () => root,
    path: '/settings',
    // A page that puts focus where it wants it (as a dialog does) keeps it there.
    component: function SettingsPage() {
      const field = useRef<HTMLInputElement>(null);
      useEffect(() => field.current?.focus(), []);
      return <input aria-label="Server URL" ref={field} />;
    },
  });
  const router = createRouter({
    routeTree: root.addChildren([list, one, settings]),
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  render(<RouterProvider router={router} />);
  return router;
}

describe('focus on a new page', () => {
  it('goes to the main region when the link that led there left with the old page', async () => {
    renderPages('/templates');
    const link = await screen.findByRole('link', { name: 'Title card' });
    // A first load leaves focus alone: the first Tab reaches the skip link.
    expect(document.body).toHaveFocus();
    link.focus();
    await userEvent.keyboard('{Enter}');
    await screen.findByRole('heading', { name: 'Title card' });
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('stays where the new page put it', async () => {
    renderPages('/templates');
    await userEvent.click(await screen.findByRole('link', { name: 'Settings' }));
    const field = await screen.findByRole('textbox', { name: 'Server URL' });
    await waitFor(() => expect(field).toHaveFocus());
  });

  it('goes to the main region on the first page after a sign-in, whose button had it', async () => {
    markArrivalBySignIn();
    renderPages('/templates');
    await screen.findByRole('heading', { name: 'Templates' });
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });
});
