import { Link } from '@tanstack/react-router';
import { NavIcon, type NavIconName } from './nav-icon.tsx';

const ITEMS = [
  { to: '/playground', label: 'Playground', icon: 'playground' },
  { to: '/pipelines', label: 'Pipelines', icon: 'pipelines' },
  { to: '/jobs', label: 'Jobs', icon: 'jobs' },
  { to: '/files', label: 'Files', icon: 'files' },
  { to: '/presets', label: 'Presets', icon: 'presets' },
  { to: '/templates', label: 'Templates', icon: 'templates' },
  { to: '/analytics', label: 'Analytics', icon: 'analytics' },
  { to: '/billing', label: 'Billing', icon: 'billing' },
  { to: '/budgets', label: 'Budgets', icon: 'budgets' },
  { to: '/keys', label: 'Keys', icon: 'keys' },
  { to: '/team', label: 'Team', icon: 'team' },
  { to: '/audit-log', label: 'Audit log', icon: 'audit' },
  { to: '/settings', label: 'Settings', icon: 'settings' },
] as const satisfies ReadonlyArray<{ to: string; label: string; icon: NavIconName }>;

/** The console's sections; the router marks the current one (`aria-current="page"`, `data-status`). */
export function SideNav() {
  return (
    <nav aria-label="Main">
      <ul className="flex flex-col gap-1">
        {ITEMS.map((item) => (
          <li key={item.to}>
            <Link
              to={item.to}
              className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap text-zinc-600 transition-colors hover:bg-zinc-100 hover:text-zinc-900 data-[status=active]:bg-zinc-200/70 data-[status=active]:text-zinc-950 dark:text-zinc-400 dark:hover:bg-zinc-800/70 dark:hover:text-zinc-100 dark:data-[status=active]:bg-zinc-800 dark:data-[status=active]:text-white"
            >
              <NavIcon name={item.icon} />
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
