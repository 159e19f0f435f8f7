import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');

/** How package.json runs TypeScript without a build (`npm run ops`): node with the swc loader. */
export const TS_LOADER = ['-r', '@swc-node/register'];

export interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The test process's environment with `overrides` applied; `undefined` removes a variable. */
export function childEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...overrides };
  for (const [name, value] of Object.entries(overrides)) if (value === undefined) delete env[name];
  return env;
}

/** Starts a process in the project root, collecting its output. */
export function start(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  return { child, output };
}

/** Resolves when the process exits; kills it (by its own pid) after `timeoutMs`. */
export function finished(
  child: ChildProcess,
  output: { stdout: string; stderr: string },
  timeoutMs = 20_000,
): Promise<Finished> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`process did not exit within ${timeoutMs} ms; stderr: ${output.stderr}`));
    }, timeoutMs);
    // 'close' comes after the exit and the last output
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      done({ status, signal, ...output });
    });
  });
}

export function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs?: number) {
  const { child, output } = start(command, args, env);
  return finished(child, output, timeoutMs);
}

/** stderr without npm's own warnings about the machine's npm configuration. */
export const ownStderr = (stderr: string): string =>
  stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('npm warn'))
    .join('\n');

/** A port nothing listens on right now (for a child process or a second server). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
