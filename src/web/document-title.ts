import { useMatches } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { FileRoutesById } from './route-tree.gen.ts';

const APP_NAME = 'Media Console';

/** Routes that only wrap or redirect: the page inside them names the tab. */
type Wrapper = '__root__' | '/_app' | '/_app/';

type Params = Record<string, string | undefined>;

/**
 * Every page's tab title. Keyed by route id, so a new route does not compile until it is named here:
 * tabs and history entries can always be told apart.
 */
const TITLES: Record<Exclude<keyof FileRoutesById, Wrapper>, string | ((params: Params) => string)> = {
  '/sign-in': 'Sign in',
  '/_app/analytics': 'Analytics',
  '/_app/audit-log': 'Audit log',
  '/_app/billing': 'Billing',
  '/_app/budgets': 'Budgets',
  '/_app/files': 'Files',
  '/_app/files_/$fileId': 'File',
  '/_app/jobs': 'Jobs',
  '/_app/jobs/$jobId': (params) => `Job ${params.jobId ?? ''}`.trim(),
  '/_app/keys': 'Keys',
  '/_app/oauth/consent': 'Connect an application',
  '/_app/pipelines': 'Pipelines',
  '/_app/playground': 'Playground',
  '/_app/presets': 'Presets',
  '/_app/settings': 'Settings',
  '/_app/team': 'Team',
  '/_app/templates': 'Templates',
  '/_app/templates_/$templateId': 'Template',
};

/** "Jobs · Media Console": the deepest named page on screen, then the app. */
export function documentTitle(matches: ReadonlyArray<{ routeId: string; params: Params }>): string {
  for (let i = matches.length - 1; i >= 0; i--) {
    const { routeId, params } = matches[i]!;
    const title = TITLES[routeId as keyof typeof TITLES];
    if (title) return `${typeof title === 'function' ? title(params) : title} · ${APP_NAME}`;
  }
  return APP_NAME;
}

/** Keeps `document.title` on the page being shown. */
export function useDocumentTitle(): void {
  const matches = useMatches();
  const title = documentTitle(matches as ReadonlyArray<{ routeId: string; params: Params }>);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
