import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** Resolves with the server's pid (the child's own) once it logged `ready`. */
  ready: Promise<number>;
  exited: Promise<number | null>;
}

/** Runs `src/server/main.ts` as `npm start` would, with only the given environment (plus PATH, HOME). */
export function startServerProcess(env: Record<string, string>): ServerProcess {
  // tsx as a loader in node itself, not the tsx wrapper: the wrapper forwards SIGTERM and kills the server
  // (exit 143) unless it acknowledges within 30 ms, which a loaded machine misses, failing drain tests.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const ready = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/"msg":"ready".*?"pid":(\d+)/);
      if (match) resolve(Number(match[1]));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', () => reject(new Error(`server exited before it was ready:\n${output}`)));
  });
  // A test that expects a failed start awaits `exited`; the rejected `ready` is then not an error.
  ready.catch(() => {});
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, ready, exited };
}
