import { useEffect } from 'react';
import { parseSignInSearch } from './auth/sign-in-search.ts';
import { SignInPage } from './routes/-components/sign-in/sign-in-page.tsx';

/** The tab's title here; the console names its pages in document-title.ts ('/sign-in' there too). */
const TITLE = 'Sign in · Media Console';

/**
 * Where a signed-out first load belongs: /sign-in, with the page asked for as `redirect` (as the
 * console's signed-in layout sends a signed-out visitor), or null when it is there already.
 */
export function signInHref(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string | null {
  if (location.pathname === '/sign-in') return null;
  const asked = `${location.pathname}${location.search}${location.hash}`;
  return asked === '/' ? '/sign-in' : `/sign-in?${new URLSearchParams({ redirect: asked })}`;
}

interface SignedOutProps {
  /** Signed in: show the console at `href`. */
  onSignedIn: (href: string) => Promise<void>;
  /** The person started to sign in (typed, clicked): start loading the console, so it is there by then. */
  onIntent: () => void;
}

/**
 * A first load while signed out: the sign-in page alone, without the console's router, routes and
 * their schemas, which load once the person is signed in.
 */
export function SignedOut({ onSignedIn, onIntent }: SignedOutProps) {
  const search = parseSignInSearch(Object.fromEntries(new URLSearchParams(window.location.search)));
  useEffect(() => {
    document.title = TITLE;
  }, []);
  return (
    <div className="contents" onInputCapture={onIntent} onPointerDownCapture={onIntent}>
      <SignInPage search={search} goTo={onSignedIn} />
    </div>
  );
}
