import type PgBoss from 'pg-boss';
import type { Config } from './config.ts';
import type { Db } from './db/pool.ts';
import type { Catalog } from './domain/catalog/catalog.ts';
import type { MediaTools } from './domain/files/media-tools.ts';
import type { ApiKeyResolver } from './domain/identity/api-keys.ts';
import type { SessionService } from './domain/identity/sessions.ts';
import type { JobRow } from './domain/jobs/job-row.ts';
import type { JobRuns } from './domain/jobs/job-runs.ts';
import type { Provider } from './domain/jobs/provider.ts';
import type { RemoteFollower } from './domain/jobs/remote-follower.ts';
import type { PublishedVoiceSamples } from './domain/presets/published-voice-samples.ts';
import type { AppKeys } from './domain/secrets.ts';
import type { Logger } from './logger.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Metrics } from './ops/metrics.ts';
import type { QueueWaker } from './queue/queue-waker.ts';
import type { BlobStore } from './storage/blob-store.ts';

/** Everything a route needs, built once at start-up (main.ts) or per test (testing/). */
export interface Services {
  config: Config;
  db: Db;
  log: Logger;
  keys: AppKeys;
  mailer: Mailer;
  sessions: SessionService;
  apiKeys: ApiKeyResolver;
  catalog: Catalog;
  /** pg-boss on our database: send work with `boss.send(name, data)`; started by startQueue. */
  boss: PgBoss;
  /** File bytes (local disk under DATA_DIR/blobs); files themselves are rows of `files`. */
  blobs: BlobStore;
  /** ffmpeg for files (probing uploads, thumbnails), from the local engines. */
  media: MediaTools;
  /** Providers that can run jobs here, by provider id. */
  providers: ReadonlyMap<string, Provider>;
  /** Wakes an idle worker of a queue (after sending it work): here, or in another process. */
  wakeQueue: (queueName: string) => void;
  /** Behind `wakeQueue`: the queue's start gives it this process's lanes. */
  queueWaker: QueueWaker;
  /** The job runs of this process (leases, drain on stop); its presence is set by startQueue. */
  jobRuns: JobRuns;
  /** The jobs this process follows at external providers while no worker waits on them. */
  remoteJobs: RemoteFollower;
  /** The samples enabled providers publish for their voices (ElevenLabs' `preview_url`), for presets. */
  voiceSamples: PublishedVoiceSamples;
  /** This process's Prometheus metrics (served at /metrics). */
  metrics: Metrics;
  /** Called once when a job reaches a terminal state (counts it, sends its webhook). */
  onJobTerminal: (row: JobRow) => Promise<void>;
}
