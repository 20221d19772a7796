import { useQueryClient } from '@tanstack/react-query';
import { resolveBaseUrl, useServerSettings } from '../../../api/server-settings.ts';
import { auth, markArrivalBySignIn, signIn } from '../../../auth/auth.ts';
import { HOME } from '../../../auth/redirect.ts';
import type { SignInSearch } from '../../../auth/sign-in-search.ts';
import { Alert } from '../../../components/alert.tsx';
import { DemoSignIn } from './demo-sign-in.tsx';
import { OtherServer } from './other-server.tsx';
import { SignInFlow } from './sign-in-flow.tsx';

interface SignInPageProps {
  search: SignInSearch;
  /** Shows `href` once signed in: a navigation in the console, the console itself on a signed-out start. */
  goTo: (href: string) => Promise<void>;
}

/**
 * The sign-in page, shown by the console's /sign-in route and, on a first load while signed out, on
 * its own (src/web/signed-out.tsx): no router, no signed-in page code.
 */
export function SignInPage({ search, goTo }: SignInPageProps) {
  const queryClient = useQueryClient();
  const baseUrl = resolveBaseUrl(useServerSettings());

  async function goOn(href = search.redirect ?? HOME) {
    // Nothing cached before signing in belongs to this person.
    queryClient.clear();
    markArrivalBySignIn();
    await goTo(href);
  }

  return (
    <main id="main" className="flex min-h-dvh flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-md">
        <div className="mb-8 flex items-center justify-center gap-2.5">
          <img src="/favicon.svg" alt="" className="size-8" />
          <span className="text-base font-semibold tracking-tight">Media Console</span>
        </div>
        <div className="rounded-2xl border border-zinc-200 bg-white p-8 shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
          {search.reason === 'expired' && (
            <Alert className="mb-6">Your session has ended. Sign in again to pick up where you were.</Alert>
          )}
          <SignInFlow
            onSignedIn={async (result) => {
              signIn(result);
              await goOn();
            }}
          />
        </div>
        <DemoSignIn
          onSignedIn={async (result) => {
            signIn(result);
            // The demo is its spend history: land where it shows.
            await goOn('/analytics');
          }}
        />
        <OtherServer
          onSaved={async () => {
            if (auth.isAuthenticated()) await goOn();
          }}
        />
        <p className="mt-4 text-center text-xs text-zinc-500 dark:text-zinc-400">
          Server <span className="font-mono">{URL.canParse(baseUrl) ? new URL(baseUrl).host : baseUrl}</span>
        </p>
      </div>
    </main>
  );
}
