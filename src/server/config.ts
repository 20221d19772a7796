import path from 'node:path';
import { z } from 'zod';
import { nonPublicReason, parseIPv4, parseIPv6 } from './net/ip-ranges.ts';

const flag = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  /**
   * Where the HTTP server listens. Unset: loopback (127.0.0.1) while sign-in codes go to the dev mailbox
   * (no SMTP_URL), every interface (0.0.0.0) once they are mailed.
   */
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  /**
   * Where the embedded PostgreSQL keeps the pristine cluster that new data directories are copied from
   * (made by the first initdb on the machine); `off` makes every new cluster with initdb.
   */
  POSTGRES_TEMPLATE_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must be a postgres:// or postgresql:// URL' })
    .optional(),
  SIGNUP_CREDITS: z.coerce.number().int().min(0).max(100_000_000).default(1000),
  /**
   * Where a team's owners add credits (a shop or an invoice form of the operator's); `{team_id}` in it is
   * replaced by the team's id. Unset: credits are added only by the operator's `npm run credits`.
   */
  CREDITS_TOP_UP_URL: z
    .url({ protocol: /^https?$/ })
    .refine((url) => url.length <= 2000, { message: 'must be at most 2,000 characters' })
    .optional(),
  /** Comma-separated addresses of the operators who may approve or reject published templates. */
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    ),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('Media Console <no-reply@localhost>'),
  /**
   * Without SMTP_URL, sign-in mail is kept in the dev mailbox, which answers only requests from this
   * machine (loopback). `off` closes it: then no sign-in mail can be read over HTTP at all.
   */
  DEV_MAILBOX: flag.default(true),
  BLOCKED_DOMAINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((d) =>
          d
            .trim()
            .toLowerCase()
            .replace(/^\.+|\.+$/g, ''),
        )
        .filter(Boolean),
    ),
  ALLOW_PRIVATE_NETWORK: flag.default(false),
  /** Secret from which session-signing and encryption keys are derived; generated into DATA_DIR when absent. */
  APP_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  /** Which parts run in this process: everything, only HTTP, or only the queue workers. */
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /**
   * Sign-in codes one client address may ask for per 15 minutes (verifications: twice as many). Raise it
   * where many people share one address (an office behind NAT, an end-to-end test suite).
   */
  SIGN_IN_CODES_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(30),
  /** Trust the first X-Forwarded-For address as the client address (behind a reverse proxy). */
  TRUST_PROXY: flag.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** The ffmpeg binary; else `ffmpeg` on the PATH, else the one bundled by @ffmpeg-installer/ffmpeg. */
  FFMPEG_PATH: z.string().min(1).optional(),
  /** The ffprobe binary; else the one beside FFMPEG_PATH, else `ffprobe` on the PATH, else the bundled one. */
  FFPROBE_PATH: z.string().min(1).optional(),
  /**
   * How long a run of a job may go without renewing its lease (it renews it while it runs) before another
   * worker takes the job over; the stalled run then writes nothing more. A crashed process's jobs do not
   * wait for this: they are requeued within seconds.
   */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(2).max(86_400).default(900),
  /**
   * On SIGTERM/SIGINT, how long running jobs may take to finish before they are handed back to the queue
   * (the next server resumes them at once).
   */
  JOB_DRAIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(20),
  /** How often the queue looks for expired leases and other upkeep. */
  QUEUE_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Whether external providers can reach PUBLIC_URL from the internet. Then they fetch input files from
   * their media URLs and call back through their webhooks when a job finishes; otherwise inputs are sent
   * to the provider's own storage and its jobs are polled. Unset: yes when PUBLIC_URL's host is a public
   * name or address (not localhost, `.local`, `.internal`, or a private range).
   */
  PROVIDERS_REACH_PUBLIC_URL: flag.optional(),
  /**
   * Fewest seconds between two status calls for one job at an external provider (jobs whose provider
   * calls back by webhook are not polled); lower only for tests against local stand-ins.
   */
  PROVIDER_POLL_SECONDS: z.coerce.number().min(0.01).max(300).default(5),
  /** A job at an external provider still unfinished after this long is cancelled there and fails here. */
  PROVIDER_JOB_DEADLINE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 3600)
    .default(30 * 60),
  /** External providers: each is enabled by its key; the base URLs point elsewhere only for tests and proxies. */
  FAL_KEY: z.string().min(1).optional(),
  FAL_QUEUE_URL: z.url({ protocol: /^https?$/ }).default('https://queue.fal.run'),
  /** fal's Platform API (model search), used by `npm run catalog -- check`. */
  FAL_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.fal.ai/v1'),
  /** fal's REST API, where input files are uploaded (`/storage/upload/initiate`, as fal-js's storage client). */
  FAL_STORAGE_URL: z.url({ protocol: /^https?$/ }).default('https://rest.fal.ai'),
  /** fal's public keys for webhook signatures (ED25519, a JSON Web Key Set). */
  FAL_JWKS_URL: z.url({ protocol: /^https?$/ }).default('https://rest.alpha.fal.ai/.well-known/jwks.json'),
  REPLICATE_API_TOKEN: z.string().min(1).optional(),
  REPLICATE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.replicate.com/v1'),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.openai.com/v1'),
  ELEVENLABS_API_KEY: z.string().min(1).optional(),
  ELEVENLABS_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.elevenlabs.io/v1'),
  /**
   * Where file bytes live: unset or `file://…` keeps them on local disk under DATA_DIR/blobs;
   * `s3://bucket/prefix` puts them in an S3-compatible bucket (the S3_* variables say where and how).
   */
  STORAGE_URL: z
    .string()
    .regex(/^(file:\/\/.*|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9._/-]*)?)$/, {
      message:
        'must be file://… or s3://<bucket>[/<prefix>] (a bucket name of 3-63 lower-case letters, digits, . and -)',
    })
    .optional(),
  /** The S3 API's address (MinIO, R2, Garage…); unset: AWS S3 of S3_REGION. */
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The S3 API's address as browsers reach it, when it differs from S3_ENDPOINT (in compose the servers
   * reach `http://minio:9000`, browsers a public name): presigned URLs are signed for this host.
   */
  S3_PUBLIC_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`: what MinIO-like servers need. */
  S3_FORCE_PATH_STYLE: flag.default(false),
  /**
   * A public address of the bucket (a CDN or a public bucket): media is served by redirecting to
   * `<base>/<key>`. Unset: a presigned GET, valid a few minutes, for each request.
   */
  S3_PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * Where a worker-only process (ROLE=worker) answers /healthz, /readyz and /metrics; default PORT. Api
   * processes answer them on PORT with the API. `0` picks a free port (tests).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** When set, /metrics answers only requests with `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  /** Where the built console lives; served at `/`. */
  STATIC_DIR: z.string().default('./dist'),
});

export type Config = z.infer<typeof ConfigSchema> & {
  HOST: string;
  PUBLIC_URL: string;
  PROVIDERS_REACH_PUBLIC_URL: boolean;
  DATA_DIR: string;
  STATIC_DIR: string;
};

/** Parses the environment. Throws ConfigError with one line per bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(lines);
  }
  const config = parsed.data;
  const storageProblems = s3ConfigProblems(config);
  if (storageProblems.length > 0) throw new ConfigError(storageProblems);
  const publicUrl = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return {
    ...config,
    HOST: config.HOST ?? (config.SMTP_URL ? '0.0.0.0' : '127.0.0.1'),
    PUBLIC_URL: publicUrl,
    PROVIDERS_REACH_PUBLIC_URL:
      config.PROVIDERS_REACH_PUBLIC_URL ?? isInternetHost(new URL(publicUrl).hostname),
    DATA_DIR: path.resolve(config.DATA_DIR),
    STATIC_DIR: path.resolve(config.STATIC_DIR),
  };
}

/** A host name or address the internet can reach, as far as its form tells. */
export function isInternetHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (parseIPv4(host) !== null || parseIPv6(host) !== null) return nonPublicReason(host) === null;
  if (!host.includes('.')) return false; // localhost, a container name
  return !/\.(localhost|local|internal|lan|home|corp|test|example|invalid)$/.test(host);
}

/** The S3 variables only mean something together: each missing or stray one is a line of its own. */
function s3ConfigProblems(config: z.infer<typeof ConfigSchema>): string[] {
  const s3 = config.STORAGE_URL?.startsWith('s3://') ?? false;
  if (!s3) {
    return (['S3_PUBLIC_BASE_URL', 'S3_PUBLIC_ENDPOINT'] as const)
      .filter((name) => config[name])
      .map((name) => `${name}: is set but STORAGE_URL is not an s3:// URL`);
  }
  // Neither: the SDK's own credential chain (an instance role, AWS_* variables); one alone is a mistake.
  if (config.S3_ACCESS_KEY_ID && !config.S3_SECRET_ACCESS_KEY)
    return ['S3_SECRET_ACCESS_KEY: is required with S3_ACCESS_KEY_ID'];
  if (!config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY)
    return ['S3_ACCESS_KEY_ID: is required with S3_SECRET_ACCESS_KEY'];
  return [];
}

export class ConfigError extends Error {
  readonly lines: string[];
  constructor(lines: string[]) {
    super(`Invalid configuration: ${lines.join('; ')}`);
    this.lines = lines;
  }
}
