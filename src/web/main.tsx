import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { keepShellOnChunkFailure } from './api/chunk-failure.ts';
import { auth } from './auth/auth.ts';
import { createQueryClient, retryFailedOnReturn } from './query-client.ts';
import { enterTeam } from './team/enter-team.ts';
import { syncTheme } from './theme/theme.ts';
import './styles.css';

const queryClient = createQueryClient();

syncTheme();
// Outages end on screen within seconds: failed queries retry when the person comes back, and a page
// whose code failed to download shows an error in the shell instead of reloading into the browser's.
retryFailedOnReturn(queryClient);
keepShellOnChunkFailure();

const container = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
let root: Root | null = null;

/**
 * Shows a screen in a new React root. Signing in swaps the sign-in page for the console: rendered into
 * the same root, the router's first render would wait, with no boundary to show, for a load that only
 * starts once it has rendered, and the sign-in page would stay on screen.
 */
function render(screen: ReactNode) {
  root?.unmount();
  root = createRoot(container);
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>{screen}</QueryClientProvider>
    </StrictMode>,
  );
}

/** The first load's code failed to download (server down mid-deploy, network gone): say so, not a blank page. */
function renderLoadFailure() {
  root?.unmount();
  root = createRoot(container);
  root.render(
    <p role="alert" className="p-8 text-sm">
      The console could not load. Check the connection and reload the page.
    </p>,
  );
}

/** The console's code, fetched once: on the first sign of a sign-in, then shown when it succeeds. */
let consoleModule: Promise<typeof import('./console.tsx')> | null = null;
function loadConsole() {
  consoleModule ??= import('./console.tsx').catch((error: unknown) => {
    consoleModule = null;
    throw error;
  });
  return consoleModule;
}

async function showConsole() {
  startEnteringTeam();
  const { createConsole } = await loadConsole();
  render(createConsole(queryClient));
}

/**
 * Every console page waits for the team it opens in, settled by a call to /me (routes/_app.tsx, through
 * team/enter-team.ts). Asked for here, that call runs while the console's code downloads and starts,
 * rather than after it; the route then finds the answer in the query cache. Its module is part of the
 * entry, so the call is sent before the console's chunks queue for the browser's few connections. Only
 * for an address without `?team=`: a link naming a team is left to the route, which reads and checks it.
 * A failure is the route's to show, so it is not one here.
 */
function startEnteringTeam() {
  if (new URLSearchParams(window.location.search).has('team')) return;
  enterTeam(queryClient, undefined).catch(() => undefined);
}

// Signed out, a first load needs only the sign-in page: the console (router, pages, zod) starts
// loading when the person starts to sign in, and a signed-in load does not fetch the sign-in page.
async function showSignIn() {
  const { SignedOut, signInHref } = await import('./signed-out.tsx');
  const href = signInHref(window.location);
  if (href) window.history.replaceState(null, '', href);
  render(
    <SignedOut
      onIntent={() => void loadConsole().catch(() => undefined)}
      onSignedIn={async (next) => {
        window.history.replaceState(null, '', next);
        await showConsole();
      }}
    />,
  );
}

(auth.isAuthenticated() ? showConsole() : showSignIn()).catch(renderLoadFailure);
