import { ConfigError, loadConfig } from './config.ts';
import { unavailableModelLines } from './domain/catalog/unavailable-models.ts';
import { createLogger, type Logger } from './logger.ts';
import { describeMediaBinaries, type MediaBinarySettings } from './providers/local/ffmpeg-binary.ts';
import { startServer } from './server.ts';
import { startupBanner } from './startup-notes.ts';

/** Entry point: `tsx src/server/main.ts`. Prints the URL when ready; SIGINT/SIGTERM stop it cleanly. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`media-console: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.LOG_LEVEL);
  // performance.now() counts from the process's start: what came before this line is loading the code.
  const started = performance.now();
  const server = await startServer(config, log);
  log.info('ready', {
    url: server.url,
    ops_url: server.opsUrl,
    public_url: config.PUBLIC_URL,
    role: config.ROLE,
    database: config.DATABASE_URL ? 'external' : 'embedded',
    pid: process.pid,
    ms: Math.round(performance.now() - started),
    load_ms: Math.round(started),
    steps: server.steps,
  });
  if (server.url) process.stdout.write(startupBanner(config, server.url));
  for (const line of unavailableModelLines(server.catalog)) process.stdout.write(`  ${line}\n`);
  void logMediaBinaries(config, log);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('shutting down', { signal });
    await server.stop();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/**
 * Which ffmpeg and ffprobe this process runs, where they came from and their versions: they decode
 * untrusted uploads, so an operator should see at a glance whether a maintained build runs.
 */
async function logMediaBinaries(config: MediaBinarySettings, log: Logger) {
  try {
    const facts = await describeMediaBinaries(config);
    if (!facts.bundled) return log.info('media binaries', facts);
    log.warn('media binaries', {
      ...facts,
      note: `an old static build from an npm package runs (${facts.bundled_built}), which gets no security updates and decodes untrusted uploads: install a maintained ffmpeg (Debian: apt-get install ffmpeg) or set FFMPEG_PATH and FFPROBE_PATH`,
    });
  } catch (error) {
    log.warn('media binaries', { error: error instanceof Error ? error.message : String(error) });
  }
}

main().catch((error) => {
  process.stderr.write(
    `media-console: failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
