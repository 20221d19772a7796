// Run by packaged-chromium.ts in a child Node with TMPDIR set to the unpack directory: @sparticuz/chromium
// unpacks only asynchronously, and playwright.config.ts needs the path synchronously.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import chromium, { inflate } from '@sparticuz/chromium';

const program = await chromium.executablePath();
// NSS and expat, which the package unpacks only on Amazon Linux: a bare Debian lacks them too.
// The package's entry is <package>/build/index.js; its archives are in <package>/bin.
const entry = fileURLToPath(import.meta.resolve('@sparticuz/chromium'));
await inflate(path.join(path.dirname(path.dirname(entry)), 'bin', 'al2023.tar.br'));
process.stdout.write(`${program}\n`);
