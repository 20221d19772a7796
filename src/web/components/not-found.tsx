import { Link } from '@tanstack/react-router';
import { buttonClasses } from './button.tsx';

export function NotFound() {
  return (
    <main
      id="main"
      className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center px-6 text-center"
    >
      <p className="font-mono text-sm text-zinc-500 dark:text-zinc-400">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">This page does not exist</h1>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
        The address may be mistyped, or the page may have moved.
      </p>
      <Link to="/" className={`${buttonClasses('secondary')} mt-6`}>
        Back to the console
      </Link>
    </main>
  );
}
