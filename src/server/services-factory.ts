import type { Config } from './config.ts';
import type { Db } from './db/pool.ts';
import { availabilityFromEnv } from './domain/catalog/availability.ts';
import { Catalog } from './domain/catalog/catalog.ts';
import { MODELS } from './domain/catalog/models.ts';
import { ApiKeyResolver } from './domain/identity/api-keys.ts';
import { SessionService } from './domain/identity/sessions.ts';
import { deriveKeys } from './domain/secrets.ts';
import type { Logger } from './logger.ts';
import { createDevMailbox, createSmtpMailer } from './mail/mailer.ts';
import { createBoss } from './queue/boss.ts';
import type { Services } from './services.ts';

/** Wires the services from configuration and an open database. */
export function createServices(
  config: Config,
  db: Db,
  databaseUrl: string,
  log: Logger,
  appSecret: string,
  env = process.env,
): Services {
  const keys = deriveKeys(appSecret);
  return {
    config,
    db,
    log,
    keys,
    mailer: config.SMTP_URL ? createSmtpMailer(config.SMTP_URL, config.MAIL_FROM) : createDevMailbox(db),
    sessions: new SessionService(db, keys.sessionSigning, config.PUBLIC_URL, config.SESSION_TTL_HOURS),
    apiKeys: new ApiKeyResolver(db),
    catalog: new Catalog(MODELS, availabilityFromEnv(env)),
    boss: createBoss(databaseUrl),
  };
}
