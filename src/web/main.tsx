import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { keepShellOnChunkFailure } from './api/chunk-failure.ts';
import { setUnauthorizedHandler } from './api/client.ts';
import { auth, forgetCredentials } from './auth/auth.ts';
import { createQueryClient, retryFailedOnReturn } from './query-client.ts';
import { createAppRouter } from './router.tsx';
import { syncTheme } from './theme/theme.ts';
import './styles.css';

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

syncTheme();
// Outages end on screen within seconds: failed queries retry when the person comes back, and a page
// whose code failed to download shows an error in the shell instead of reloading into the browser's.
retryFailedOnReturn(queryClient);
keepShellOnChunkFailure();

// A 401 from any call means the credentials are gone (session expired or revoked, key deleted):
// forget them and ask for a sign-in that comes back here. A 401 while signed out (a wrong code on
// the sign-in page) belongs to the form that made the call.
setUnauthorizedHandler(() => {
  const here = router.state.location;
  if (!auth.isAuthenticated() || here.pathname === '/sign-in') return;
  forgetCredentials({ refused: true });
  void router
    .navigate({ to: '/sign-in', search: { redirect: here.href, reason: 'expired' }, replace: true })
    .then(() => queryClient.clear());
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
