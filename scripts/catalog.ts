import { loadConfig } from '../src/server/config.ts';
import { isoDay } from '../src/server/domain/catalog/lifecycle.ts';
import { MODELS } from '../src/server/domain/catalog/models.ts';
import { checkCatalog, reportLines } from '../src/server/providers/remote/model-listings.ts';

/**
 * `npm run catalog -- check`: asks each provider whose key is set (FAL_KEY, REPLICATE_API_TOKEN,
 * OPENAI_API_KEY, ELEVENLABS_API_KEY) whether every model id the catalog sends it still exists, through
 * the provider's own listing API, and prints what does not, what is deprecated upstream, and which
 * providers could not be checked. Exits 1 when an id is missing, so it can gate a release.
 */
const USAGE = 'usage: npm run catalog -- check';
const [command] = process.argv.slice(2);
if (command !== 'check') {
  console.error(USAGE);
  process.exit(2);
}
const config = loadConfig(process.env);
const reports = await checkCatalog(config, MODELS, isoDay(new Date()));
for (const line of reportLines(reports)) console.log(line);
process.exit(reports.some((r) => r.missing.length) ? 1 : 0);
