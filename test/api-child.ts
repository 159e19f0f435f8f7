import { request } from 'node:http';
import { childEnv, finished, freePort, start, TS_LOADER, type Finished } from './child-process';

/** One JSON log line of a child process (pino). */
export type LogLine = Record<string, unknown> & { msg?: string };

export interface ChildApp {
  port: number;
  pid: number;
  /** Resolves when the process exits (killed after `timeoutMs` of `startApi`). */
  exited: Promise<Finished>;
  /** The JSON lines written to stdout so far. */
  lines(): LogLine[];
  /** Resolves with the first line whose `msg` is `msg` (polls stdout). */
  line(msg: string): Promise<LogLine>;
  signal(signal: NodeJS.Signals): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** GET `path` on a connection of its own (no keep-alive pool left behind); 0 when refused. */
export const statusOf = (port: number, path: string) =>
  new Promise<number>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });

function childHandle(
  child: ReturnType<typeof start>['child'],
  output: ReturnType<typeof start>['output'],
  port: number,
  exited: Promise<Finished>,
): ChildApp {
  const lines = () =>
    output.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  return {
    port,
    pid: child.pid as number,
    exited,
    lines,
    async line(msg) {
      for (;;) {
        const found = lines().find((line) => line.msg === msg);
        if (found) return found;
        if (child.exitCode !== null || child.signalCode !== null) {
          throw new Error(
            `no "${msg}" line before exit; stdout:\n${output.stdout}\nstderr:\n${output.stderr}`,
          );
        }
        await sleep(25);
      }
    },
    signal: (signal) => child.kill(signal),
  };
}

/**
 * The API from source (`node -r @swc-node/register apps/api/src/main.ts`) on the run's database,
 * info-level JSON logs on stdout; resolves once `/health/live` answers.
 */
export async function startApi(env: Record<string, string | undefined> = {}, timeoutMs = 60_000) {
  const port = await freePort();
  const { child, output } = start(
    'node',
    [...TS_LOADER, 'apps/api/src/main.ts'],
    childEnv({
      DATABASE_URL: process.env.DATABASE_URL,
      REDIS_URL: undefined,
      MIGRATE_ON_START: undefined,
      METRICS_ENABLED: undefined,
      METRICS_PORT: undefined,
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...env,
    }),
  );
  const exited = finished(child, output, timeoutMs);
  exited.catch(() => undefined); // awaited by the test; a start-up failure is reported below
  for (;;) {
    if ((await statusOf(port, '/health/live')) === 200) break;
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the API exited during start-up: ${output.stderr}`);
    }
    await sleep(100);
  }
  return childHandle(child, output, port, exited);
}

/** The worker from source with its BullMQ keys under `queuePrefix`; resolves at its "worker started" line. */
export async function startWorker(
  queuePrefix: string,
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
) {
  const { child, output } = start(
    'node',
    [
      ...TS_LOADER,
      '-e',
      `require('./apps/worker/src/main').startWorker({ queuePrefix: ${JSON.stringify(queuePrefix)} })`,
    ],
    childEnv({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'info', METRICS_PORT: undefined, ...env }),
  );
  const exited = finished(child, output, timeoutMs);
  exited.catch(() => undefined);
  const worker = childHandle(child, output, 0, exited);
  await worker.line('worker started');
  return worker;
}
