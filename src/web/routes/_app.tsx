import { createFileRoute, Outlet, redirect, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { auth, credentialsRefused } from '../auth/auth.ts';
import { ToastRegion } from '../components/toast-region.tsx';
import { meQueryOptions } from '../queries/me.ts';
import { AccountMenu } from './-components/app-shell/account-menu.tsx';
import { Brand } from './-components/app-shell/brand.tsx';
import { SideNav } from './-components/app-shell/side-nav.tsx';
import { SkipLink } from './-components/app-shell/skip-link.tsx';

/** The signed-in console: navigation, account menu, and the page. Signed-out visitors go to sign-in and come back. */
export const Route = createFileRoute('/_app')({
  beforeLoad: ({ context, location }) => {
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
  },
  loader: ({ context }) => context.queryClient.ensureQueryData(meQueryOptions()),
  component: AppLayout,
});

function AppLayout() {
  useSignOutFromOtherTabs();
  // One grid, two arrangements: on small screens brand and account share the top row and the
  // navigation scrolls sideways below; from lg on the navigation is a sidebar under the brand.
  return (
    <div className="grid min-h-dvh grid-cols-[minmax(0,1fr)_auto] grid-rows-[auto_auto_1fr] [grid-template-areas:'brand_account'_'nav_nav'_'main_main'] lg:grid-cols-[15rem_minmax(0,1fr)] lg:grid-rows-[4rem_1fr] lg:[grid-template-areas:'brand_account'_'nav_main']">
      <SkipLink />
      <div className="flex items-center border-b border-zinc-200 bg-white px-3 [grid-area:brand] lg:border-r lg:px-4 dark:border-zinc-800 dark:bg-zinc-900">
        <Brand />
      </div>
      <header className="flex h-16 items-center justify-end border-b border-zinc-200 bg-white px-3 [grid-area:account] lg:bg-transparent lg:px-8 dark:border-zinc-800 dark:bg-zinc-900 lg:dark:bg-transparent">
        <AccountMenu />
      </header>
      <div className="border-b border-zinc-200 bg-white px-3 py-2 [grid-area:nav] lg:border-r lg:border-b-0 lg:px-4 lg:py-5 dark:border-zinc-800 dark:bg-zinc-900">
        <div className="lg:sticky lg:top-5">
          <SideNav />
        </div>
      </div>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl px-4 py-8 [grid-area:main] focus:outline-none sm:px-8"
      >
        <Outlet />
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
