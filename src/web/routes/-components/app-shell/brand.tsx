import { Link } from '@tanstack/react-router';

export function Brand() {
  return (
    <Link to="/" className="flex items-center gap-2.5 rounded-lg px-1 py-1 text-zinc-950 dark:text-white">
      <img src="/favicon.svg" alt="" className="size-7" />
      <span className="text-sm font-semibold tracking-tight">Media Console</span>
    </Link>
  );
}
