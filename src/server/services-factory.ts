import type { Config } from './config.ts';
import type { Db } from './db/pool.ts';
import { checkBudgetAlertsLater } from './domain/budgets/budget-alerts.ts';
import { providerAvailability } from './domain/catalog/availability.ts';
import { Catalog } from './domain/catalog/catalog.ts';
import { MODELS } from './domain/catalog/models.ts';
import { ApiKeyResolver } from './domain/identity/api-keys.ts';
import { SessionService } from './domain/identity/sessions.ts';
import type { JobRow } from './domain/jobs/job-row.ts';
import { JobRuns } from './domain/jobs/job-runs.ts';
import { jobWebhookHook } from './domain/jobs/job-webhook.ts';
import { createPipelineEngine } from './domain/jobs/pipeline-engine.ts';
import type { Provider } from './domain/jobs/provider.ts';
import { RemoteFollower } from './domain/jobs/remote-follower.ts';
import { PublishedVoiceSamples } from './domain/presets/published-voice-samples.ts';
import { deriveKeys } from './domain/secrets.ts';
import type { Logger } from './logger.ts';
import { createDevMailbox, createSmtpMailer } from './mail/mailer.ts';
import { createMetrics } from './ops/metrics.ts';
import { createLocalEngines } from './providers/local/engines.ts';
import { ffmpegPath, runFfmpeg } from './providers/local/ffmpeg-binary.ts';
import { probeMedia } from './providers/local/ffmpeg-probe.ts';
import { createLocalProvider } from './providers/local/local-provider.ts';
import { elevenLabsVoiceSamples } from './providers/remote/model-listings.ts';
import { createRemoteProviders } from './providers/remote/remote-providers.ts';
import { createBoss } from './queue/boss.ts';
import { QueueWaker } from './queue/queue-waker.ts';
import type { Services } from './services.ts';
import { createBlobStore } from './storage/create-blob-store.ts';

/** Wires the services from configuration and an open database. */
export function createServices(
  config: Config,
  db: Db,
  databaseUrl: string,
  log: Logger,
  appSecret: string,
  env = process.env,
  /** Today, for the catalog's lifecycles (tests move it; the server reads the system clock). */
  now: () => Date = () => new Date(),
): Services {
  const keys = deriveKeys(appSecret);
  const localEngines = createLocalEngines(config);
  // Pipelines start jobs of their own, so their engine needs the services being built here.
  localEngines.set(
    'pipeline',
    createPipelineEngine(() => services),
  );
  const providers = new Map<string, Provider>(
    [createLocalProvider(localEngines), ...createRemoteProviders(config)].map((p) => [p.id, p]),
  );
  const boss = createBoss(databaseUrl, config.QUEUE_MAINTENANCE_SECONDS);
  const metrics = createMetrics(db, config.ROLE);
  const sendWebhook = jobWebhookHook({ db, boss, config });
  /** Once a job reached a terminal state: it is counted, its budgets checked and its webhook enqueued. */
  const onJobTerminal = async (row: JobRow) => {
    metrics.jobOutcomes.inc({ tool: row.tool, provider: row.provider, status: row.status });
    log.info('job finished', { job_id: row.id, status: row.status, cost_cents: row.actual_cost_cents });
    // Budgets are checked when a job is created, against its hold. A charge above the hold (a provider
    // that billed more seconds than estimated) is spend that check never saw: the thresholds it crosses
    // alert now rather than at the team's next job.
    if (row.status === 'completed' && (row.actual_cost_cents ?? 0) > row.estimated_cost_cents) {
      checkBudgetAlertsLater(services, {
        teamId: row.team_id,
        personId: row.person_id,
        apiKeyId: row.api_key_id,
        folderId: row.folder_id,
      });
    }
    // The job's end has committed: a webhook that cannot be enqueued now must not turn it into a failure
    // (or a cancel into a 500). The maintenance sweep enqueues it (enqueueMissedWebhooks).
    await sendWebhook(row).catch((error: unknown) =>
      log.warn('job webhook not enqueued; the maintenance sweep will', {
        job_id: row.id,
        error: String(error),
      }),
    );
  };
  const queueWaker = new QueueWaker(db, log);
  const services: Services = {
    config,
    db,
    log,
    keys,
    mailer: config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM) : createDevMailbox(db),
    sessions: new SessionService(db, keys.sessionSigning, config.PUBLIC_URL, config.SESSION_TTL_HOURS),
    apiKeys: new ApiKeyResolver(db),
    catalog: new Catalog(MODELS, providerAvailability(providers, env), now),
    boss,
    blobs: createBlobStore(config),
    // The binary is looked up per call, as before, so a server without ffmpeg still starts.
    media: {
      probe: (file, signal) => probeMedia(ffmpegPath(config), file, 'the file', signal),
      ffmpeg: (args) => runFfmpeg(ffmpegPath(config), args),
    },
    providers,
    metrics,
    // Only an enabled provider's listing is read: without its key its voices have no sample here.
    voiceSamples: new PublishedVoiceSamples({
      listings: config.ELEVENLABS_API_KEY
        ? { elevenlabs: (signal) => elevenLabsVoiceSamples(config, signal) }
        : {},
      dataDir: config.DATA_DIR,
      log,
    }),
    onJobTerminal,
    wakeQueue: (name) => queueWaker.wake(name),
    queueWaker,
    jobRuns: new JobRuns(config.JOB_LEASE_SECONDS),
    remoteJobs: new RemoteFollower(),
  };
  return services;
}
