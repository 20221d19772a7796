import { createFileRoute, Outlet, redirect, retainSearchParams, useRouter } from '@tanstack/react-router';
import { Fragment, useEffect, useId } from 'react';
import { isUuid } from '../../contract/values.ts';
import { auth, credentialsRefused } from '../auth/auth.ts';
import { cx } from '../components/cx.ts';
import { ToastRegion } from '../components/toast-region.tsx';
import { matching, searchParams } from '../search-params/fields.ts';
import { enterTeam } from '../team/enter-team.ts';
import { AccountMenu } from './-components/app-shell/account-menu.tsx';
import { ApiReferenceLink } from './-components/app-shell/api-reference-link.tsx';
import { Brand } from './-components/app-shell/brand.tsx';
import { MainMenuButton, useMainMenu } from './-components/app-shell/main-menu.tsx';
import { SideNav } from './-components/app-shell/side-nav.tsx';
import { SkipLink } from './-components/app-shell/skip-link.tsx';
import { TeamSwitcher } from './-components/app-shell/team-switcher.tsx';
import { useFocusOnNewPage } from './-components/app-shell/use-focus-on-new-page.ts';

/** `?team=<id>`: the team the page is for, kept by every link within the console (a malformed id is dropped). */
const TeamSearch = searchParams({ team: matching(isUuid) });

/**
 * The signed-in console: navigation, account menu, and the page. Signed-out visitors go to sign-in and come
 * back. The team the console works in is settled here, before any page loads its data (team/enter-team.ts).
 */
export const Route = createFileRoute('/_app')({
  validateSearch: TeamSearch,
  search: { middlewares: [retainSearchParams(['team'])] },
  beforeLoad: async ({ context, location, search }) => {
    if (!context.auth.isAuthenticated()) {
      // Any route may notice a refused session first (a loader's 401 re-runs this guard): say why.
      throw redirect({
        to: '/sign-in',
        search: {
          ...(location.href === '/' ? {} : { redirect: location.href }),
          ...(credentialsRefused() ? { reason: 'expired' as const } : {}),
        },
      });
    }
    const { team } = await enterTeam(context.queryClient, search.team);
    if (team !== search.team) {
      // The address names the team the page shows (added, corrected or dropped), so a copied link opens in it.
      throw redirect({
        to: location.pathname as '/',
        search: { ...(location.search as Record<string, unknown>), team },
        hash: location.hash,
        replace: true,
      });
    }
  },
  component: AppLayout,
});

function AppLayout() {
  // The team of the page on screen: it changes when a navigation to another team has loaded, and then
  // the page and the header start afresh, with nothing (an open dialog, a half-filled form) of the old team.
  const team = Route.useSearch({ select: (search) => search.team }) ?? 'own';
  useSignOutFromOtherTabs();
  useFocusOnNewPage();
  const menu = useMainMenu();
  const navId = useId();
  // One grid, two arrangements: on small screens a top bar (menu button, brand, account) with the
  // navigation as a menu panel under it; from lg on the navigation is a sidebar under the brand.
  return (
    <div className="relative grid min-h-dvh grid-cols-[minmax(0,1fr)] grid-rows-[4rem_1fr] [grid-template-areas:'header'_'main'] lg:grid-cols-[15rem_minmax(0,1fr)] lg:[grid-template-areas:'header_header'_'nav_main']">
      <SkipLink />
      <header className="flex border-b border-zinc-200 bg-white [grid-area:header] lg:bg-transparent dark:border-zinc-800 dark:bg-zinc-900 lg:dark:bg-transparent">
        <div className="flex items-center gap-1 px-3 lg:w-60 lg:border-r lg:border-zinc-200 lg:bg-white lg:px-4 dark:lg:border-zinc-800 dark:lg:bg-zinc-900">
          <MainMenuButton menu={menu} controls={navId} />
          <Brand />
        </div>
        <div className="flex min-w-0 flex-1 items-center justify-end gap-3 px-3 lg:px-8">
          <ApiReferenceLink />
          <Fragment key={team}>
            <TeamSwitcher />
            <AccountMenu />
          </Fragment>
        </div>
      </header>
      <div
        ref={menu.panelRef}
        id={navId}
        className={cx(
          'absolute inset-x-0 top-16 z-40 border-b border-zinc-200 bg-white px-3 py-3 shadow-lg [grid-area:nav] lg:static lg:block lg:border-r lg:border-b-0 lg:px-4 lg:py-5 lg:shadow-none dark:border-zinc-800 dark:bg-zinc-900',
          !menu.open && 'hidden',
        )}
      >
        <div className="lg:sticky lg:top-5">
          <SideNav />
        </div>
      </div>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl px-4 py-8 [grid-area:main] focus:outline-none sm:px-8"
      >
        <Outlet key={team} />
      </main>
      <ToastRegion />
    </div>
  );
}

/** Signing out in another tab clears the shared storage; this tab follows (its guard sends it to sign-in). */
function useSignOutFromOtherTabs() {
  const router = useRouter();
  useEffect(() => {
    const onStorage = () => {
      if (!auth.isAuthenticated()) void router.invalidate();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [router]);
}
