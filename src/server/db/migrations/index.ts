import type { Migration } from '../migrate.ts';
import { identity } from './001-identity.ts';
import { jobs } from './002-jobs.ts';

/** Every migration, in the order it applies. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [identity, jobs];
