import type { Migration } from '../migrate.ts';
import { identity } from './001-identity.ts';
import { jobs } from './002-jobs.ts';
import { webhooks } from './003-webhooks.ts';
import { files } from './004-files.ts';
import { uploadsFolders } from './005-uploads-folders.ts';
import { keysTeam } from './006-keys-team.ts';
import { analyticsIndexes } from './007-analytics.ts';
import { analyticsRollup } from './008-analytics-rollup.ts';
import { jobLeases } from './009-job-leases.ts';
import { exposure } from './010-exposure.ts';
import { teamPresets } from './011-team-presets.ts';
import { templates } from './012-templates.ts';
import { jobListIndexes } from './013-job-list-indexes.ts';
import { staticRollupTriggers } from './014-static-rollup-triggers.ts';
import { runFailures } from './015-run-failures.ts';
import { webhookSweepIndex } from './016-webhook-sweep-index.ts';
import { ledgerListIndexes } from './017-ledger-list-indexes.ts';
import { remoteFollow } from './018-remote-follow.ts';
import { jobUpdateOrder } from './019-job-update-order.ts';
import { fileGeneratedBy } from './020-file-generated-by.ts';
import { measuredRuns } from './021-measured-runs.ts';
import { mcpOauth } from './022-mcp-oauth.ts';
import { keyExpiry } from './023-key-expiry.ts';
import { webhookSecretOverlap } from './024-webhook-secret-overlap.ts';
import { keyRestrictions } from './025-key-restrictions.ts';
import { budgets } from './026-budgets.ts';
import { auditLog } from './027-audit-log.ts';
import { performanceRollup } from './028-performance-rollup.ts';
import { webhookEndpoints } from './029-webhook-endpoints.ts';
import { webhookAttemptUrl } from './030-webhook-attempt-url.ts';
import { estimatedRun } from './031-estimated-run.ts';

/** Every migration, in the order it applies. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  identity,
  jobs,
  webhooks,
  files,
  uploadsFolders,
  keysTeam,
  analyticsIndexes,
  analyticsRollup,
  jobLeases,
  exposure,
  teamPresets,
  templates,
  jobListIndexes,
  staticRollupTriggers,
  runFailures,
  webhookSweepIndex,
  ledgerListIndexes,
  remoteFollow,
  jobUpdateOrder,
  fileGeneratedBy,
  measuredRuns,
  mcpOauth,
  keyExpiry,
  webhookSecretOverlap,
  keyRestrictions,
  budgets,
  auditLog,
  performanceRollup,
  webhookEndpoints,
  webhookAttemptUrl,
  estimatedRun,
];
