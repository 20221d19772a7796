import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustCredits } from '../server/domain/billing/corrections.ts';
import { freshEmail, person } from '../server/testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../server/testing/test-app.ts';
import { EXIT } from './exit-codes.ts';

/*
 * The `media` command as a user runs it: a child process (bin/media.mjs) against the real app on a real
 * socket, signed in through the emailed code read from the dev mailbox.
 */

const root = path.resolve(import.meta.dirname, '../..');
let t: TestApp;
let server: http.Server;
let origin: string;
let work: string;
let configDir: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'media-cli-'));
  configDir = path.join(work, 'config');
  // The socket first, so the app's PUBLIC_URL (and the URLs of its files) is the address the CLI uses.
  let app: TestApp['app'] | undefined;
  server = serve({
    fetch: (request, env) => app!.fetch(request, env),
    port: 0,
    hostname: '127.0.0.1',
  }) as http.Server;
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  t = await createTestApp({ PUBLIC_URL: origin, DATA_DIR: path.join(work, 'data'), TRUST_PROXY: 'false' });
  app = t.app;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  fs.rmSync(work, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; done: Promise<Run> } {
  const child = spawn(process.execPath, [path.join(root, 'bin/media.mjs'), ...args], {
    cwd: work,
    env: {
      PATH: process.env.PATH,
      HOME: work,
      MEDIA_BASE_URL: origin,
      MEDIA_CONFIG_DIR: configDir,
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    child.emit('stderr-changed', stderr);
  });
  const done = new Promise<Run>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

function media(args: string[], env?: Record<string, string>): Promise<Run> {
  const { child, done } = start(args, env);
  child.stdin!.end();
  return done;
}

/** Resolves once the child has printed `text` on stderr. */
function untilStderr(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (all: string) => {
      if (all.includes(text)) {
        child.off('stderr-changed', check);
        resolve();
      }
    };
    child.on('stderr-changed', check);
  });
}

const email = `cli-${Date.now()}@example.com`;

/** `media login` as a person does it: the email, then the code read from the mail. */
async function login(address: string, env: Record<string, string> = {}): Promise<Run> {
  const { child, done } = start(['login', '--email', address], env);
  await untilStderr(child, 'Code from the email');
  const mail = await t.local.devMailbox({ query: { to: address } });
  child.stdin!.end(`${mail.data[0]!.code}\n`);
  return done;
}

describe('media login, whoami, logout', () => {
  it('signs in with the code from the email and keeps the key in a file only the user can read', async () => {
    const run = await login(email);
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(EXIT.ok);
    expect(JSON.parse(run.stdout)).toMatchObject({ signed_in: true, email, base_url: origin });

    const file = path.join(configDir, 'credentials.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored.servers[origin].api_key).toMatch(/^mcsk_/);

    const who = await media(['whoami', '--json']);
    expect(who.code).toBe(EXIT.ok);
    expect(JSON.parse(who.stdout)).toMatchObject({ person: { email }, balance_cents: expect.any(Number) });
  });

  it('acts with MEDIA_API_KEY or --api-key instead of the stored key, and refuses a bad one in one line', async () => {
    const bad = await media(['whoami'], { MEDIA_API_KEY: 'mcsk_not_a_real_key' });
    expect(bad.code).toBe(EXIT.auth);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(/^error: Invalid or revoked API key\. \[unauthorized\]/);
    expect(bad.stderr).not.toMatch(/\bat .*\.ts:\d+/);

    const stored = JSON.parse(fs.readFileSync(path.join(configDir, 'credentials.json'), 'utf8'));
    const good = await media(['whoami', '--api-key', stored.servers[origin].api_key, '--json']);
    expect(good.code).toBe(EXIT.ok);
  });
});

describe('media --team', () => {
  it("acts for another of the person's teams with a key made for it once, and names the teams when it is not one", async () => {
    const owner = await person(t);
    const invited = freshEmail('cli-member');
    await owner.client.inviteTeamMember({ body: { email: invited, role: 'member' } });
    const env = { MEDIA_CONFIG_DIR: path.join(work, 'member-config') };
    expect((await login(invited, env)).code).toBe(EXIT.ok);

    const teams = JSON.parse((await media(['teams', '--json'], env)).stdout);
    const shared = teams.data.find((team: { id: string }) => team.id === owner.teamId);
    expect(shared).toBeDefined();
    const who = await media(['whoami', '--team', shared.slug, '--json'], env);
    expect(who.code, who.stderr).toBe(EXIT.ok);
    expect(JSON.parse(who.stdout).team.id).toBe(owner.teamId);
    const stored = JSON.parse(fs.readFileSync(path.join(env.MEDIA_CONFIG_DIR, 'credentials.json'), 'utf8'));
    expect(Object.keys(stored.servers[origin].team_keys)).toEqual([owner.teamId]);

    const unknown = await media(['whoami', '--team', 'no-such-team'], env);
    expect(unknown.code).toBe(EXIT.refused);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain('You are not in a team called no-such-team');
  });
});

describe('media image', () => {
  it('--wait --out writes the generated image as a real PNG', async () => {
    const run = await media(['image', 'a red fox in the snow', '--aspect-ratio', '1:1', '--out', 'fox.png']);
    expect(run.stderr).not.toContain('error');
    expect(run.code).toBe(EXIT.ok);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: 'completed', source: 'api', saved: ['fox.png'] });
    const bytes = fs.readFileSync(path.join(work, 'fox.png'));
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBe(meta.height);
  });

  it("feeds a job's output to the next command (--file job:<id>), and a failed job exits 5 in one line", async () => {
    const listed = JSON.parse((await media(['jobs', 'list', '--tool', 'image', '--json'])).stdout);
    const fox = listed.data.find((j: { status: string }) => j.status === 'completed');
    // Audio from a still image: the chained input arrives, and the job fails on it.
    const run = await media([
      'ffmpeg',
      '--file',
      `job:${fox.id}`,
      '--operations',
      '[{"op":"extract_audio","format":"mp3"}]',
      '--wait',
    ]);
    expect(run.code, run.stderr).toBe(EXIT.jobFailed);
    // The job's creation is noted as it happens; the failure is the one error line, last.
    const lines = run.stderr.trim().split('\n');
    expect(lines.filter((line) => line.startsWith('error:'))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/^error: Job job_\S+ failed: .*\[invalid_input\]$/);
    const { error } = JSON.parse(run.stdout);
    expect(error.job.input.files).toEqual([{ url: fox.output.outputs[0].url }]);
  });

  it('lists the fields and limits of the chosen model in --help', async () => {
    const run = await media(['image', '--model', 'local-sketch', '--help']);
    expect(run.code).toBe(EXIT.ok);
    expect(run.stdout).toContain('--prompt <text>');
    expect(run.stdout).toContain('at most 2000 characters');
    expect(run.stdout).toContain('--aspect-ratio');
  });

  it('refuses an unknown flag and a bad value in one line with exit 2', async () => {
    const unknown = await media(['image', 'a fox', '--colour', 'red']);
    expect(unknown.code).toBe(EXIT.refused);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain("unknown option '--colour'");

    const invalid = await media(['music', 'calm piano', '--duration', '0']);
    expect(invalid.code).toBe(EXIT.refused);
    expect(invalid.stderr.trim().split('\n')).toHaveLength(1);
    expect(invalid.stderr).toContain('duration must be at least 1');
  });

  it('says the balance is too low in one line with exit 4', async () => {
    const { rows } = await t.db.query<{ id: string; balance_cents: string }>(
      `SELECT t.id, t.balance_cents FROM teams t JOIN memberships m ON m.team_id = t.id
         JOIN persons p ON p.id = m.person_id WHERE p.email = $1`,
      [email],
    );
    const team = rows[0]!;
    await adjustCredits(t.db, team.id, -Number(team.balance_cents), 'test: empty the balance');
    try {
      const run = await media(['image', 'a fox with no credits left', '--wait']);
      expect(run.code).toBe(EXIT.balance);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain('[insufficient_balance]');
    } finally {
      await adjustCredits(t.db, team.id, Number(team.balance_cents), 'test: restore the balance');
    }
  });
});

describe('media … --file', () => {
  it('uploads a 20 MB file once; a second run finds it by its hash and sends nothing', async () => {
    // 20 MB of WAV audio (mono, 16-bit, 44.1 kHz: about 4 minutes of a low hum).
    const samples = 10 * 1024 * 1024;
    const wav = Buffer.alloc(44 + samples * 2);
    wav.write('RIFF', 0);
    wav.writeUInt32LE(36 + samples * 2, 4);
    wav.write('WAVEfmt ', 8);
    wav.writeUInt32LE(16, 16);
    wav.writeUInt16LE(1, 20);
    wav.writeUInt16LE(1, 22);
    wav.writeUInt32LE(44100, 24);
    wav.writeUInt32LE(44100 * 2, 28);
    wav.writeUInt16LE(2, 32);
    wav.writeUInt16LE(16, 34);
    wav.write('data', 36);
    wav.writeUInt32LE(samples * 2, 40);
    for (let i = 0; i < samples; i++) wav.writeInt16LE(Math.round(3000 * Math.sin(i / 40)), 44 + i * 2);
    fs.writeFileSync(path.join(work, 'hum.wav'), wav);

    const args = ['ffmpeg', '--file', 'hum.wav', '--operations', '[{"op":"extract_audio","format":"mp3"}]'];
    const first = await media([...args, '--verbose', '--idempotency-key', 'cli-hum-1']);
    expect(first.stderr).not.toContain('error');
    expect(first.code).toBe(EXIT.ok);
    expect(first.stderr).toMatch(/> PUT \S+\/v2\/files\/upload\//);
    const job = JSON.parse(first.stdout);
    expect(job.input.files).toHaveLength(1);

    const second = await media([...args, '--verbose', '--idempotency-key', 'cli-hum-2']);
    expect(second.code).toBe(EXIT.ok);
    expect(second.stderr).toContain('already uploaded');
    expect(second.stderr).not.toContain('> PUT');
    expect(JSON.parse(second.stdout).input.files).toEqual(job.input.files);

    const files = await media(['files', 'list', '--query', 'hum.wav', '--json']);
    expect(JSON.parse(files.stdout).data.filter((f: { origin: string }) => f.origin !== 'job')).toHaveLength(
      1,
    );
  });
});
