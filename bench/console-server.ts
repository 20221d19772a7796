import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { testBrowser } from '../e2e/support/browser-launch.ts';

/*
 * What the console's browser benches share: a real server (its own data directory, embedded PostgreSQL)
 * serving a built console, a signed-in session made through the real sign-in, and Chromium launched as the
 * e2e suite launches it.
 */

const root = path.resolve(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(base: string, child: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before answering`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer ${base}/healthz within ${timeoutMs / 1000}s`);
}

export async function startServer(dist: string) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-console-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), ['src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      STATIC_DIR: dist,
      DATABASE_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth(base, child);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  };
  return { base, stop };
}

async function postJson(url: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** A new account through the real sign-in (code from the dev mailbox), kept as the console keeps it. */
export async function signedInSession(
  base: string,
  email = `first-screen-${Date.now()}@example.com`,
): Promise<string> {
  await postJson(`${base}/api/auth/cli/send-otp`, { email });
  const mailbox = (await (await fetch(`${base}/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as {
    data: Array<{ code: string | null }>;
  };
  const code = mailbox.data[0]?.code;
  if (!code) throw new Error('no sign-in code in the dev mailbox');
  const session = await postJson(`${base}/api/auth/cli/verify-otp`, { email, code });
  return JSON.stringify({ token: session.access_token, expiresAt: session.expires_at, email: session.email });
}

/** The e2e suite's browser, launched as it is (e2e/support/browser-launch.ts: the one place for flags). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(testBrowser().launchOptions);
}
