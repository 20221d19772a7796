import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

// `npm run dev`: the server (restarted on change) and Vite with hot reload, which proxies the API to it.
const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const children: ChildProcess[] = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'src/server/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn(bin('vite'), [], { cwd: root, stdio: 'inherit' }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
