import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { HOME } from '../auth/redirect.ts';
import { parseSignInSearch } from '../auth/sign-in-search.ts';
import { SignInPage } from './-components/sign-in/sign-in-page.tsx';

/** Sign-in inside the console (after signing out or a refused session); a signed-out first load shows it alone. */
export const Route = createFileRoute('/sign-in')({
  validateSearch: parseSignInSearch,
  beforeLoad: ({ context, search }) => {
    if (context.auth.isAuthenticated()) throw redirect({ href: search.redirect ?? HOME, replace: true });
  },
  component: SignInRoute,
});

function SignInRoute() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  return <SignInPage search={search} goTo={(href) => navigate({ href, replace: true })} />;
}
