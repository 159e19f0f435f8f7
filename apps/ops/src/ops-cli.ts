import { parseArgs } from 'node:util';
import { MikroORM, RequestContext } from '@mikro-orm/core';
import { ConsoleLogger, type LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppConfig, ConfigError, DomainError } from '@app/platform';
import { commandHelp, OPS_COMMANDS, OpsCommand, usageLine, UsageError } from './commands';
import { OpsModule } from './ops.module';

export interface Invocation {
  command: OpsCommand;
  input: unknown;
  json: boolean;
}

export const usage = (commands: OpsCommand[] = OPS_COMMANDS): string =>
  [
    'Usage:',
    ...commands.map((c) => `  ${usageLine(c).padEnd(72)} ${c.summary}`),
    '',
    '`npm run ops -- <command> --help` prints the options of one command.',
    'Environment: DATABASE_URL (postgres://…; unset: the embedded PostgreSQL in EMBEDDED_DATA_DIR),',
    'LOG_LEVEL (boot messages on stderr at debug). The result goes to stdout, anything else to stderr.',
  ].join('\n');

const isHelp = (arg: string | undefined) => arg === 'help' || arg === '--help' || arg === '-h';

/**
 * Reads the command line before anything boots; `'help'` for no command, `help` or `--help`;
 * `{ help: command }` for `<command> --help`.
 */
export function parseInvocation(
  argv: string[],
  commands: OpsCommand[] = OPS_COMMANDS,
): Invocation | 'help' | { help: OpsCommand } {
  const [name, ...rest] = argv;
  if (name === undefined || isHelp(name)) return 'help';
  const command = commands.find((c) => c.name === name);
  if (!command) {
    throw new UsageError(`unknown command "${name}"; commands: ${commands.map((c) => c.name).join(', ')}`);
  }
  if (rest.some((arg) => arg === '--help' || arg === '-h')) return { help: command };
  try {
    const { values } = parseArgs({
      args: rest,
      options: { ...command.flags, json: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    });
    const { json, ...flags } = values as Record<string, string | boolean | undefined>;
    return { command, input: command.parse(flags), json: json === true };
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/\s+/g, ' ') : String(err);
    throw new UsageError(`${name}: ${reason} (usage: ${usageLine(command)})`);
  }
}

/** Nest's console logger, but on stderr only: stdout carries the result (one JSON object with --json). */
class StderrLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: NestLogLevel,
    _stream?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack);
  }
}

const nestLogLevels = (config: AppConfig): NestLogLevel[] =>
  config.logLevel === 'silent'
    ? []
    : config.logLevel === 'debug' || config.logLevel === 'trace'
      ? ['fatal', 'error', 'warn', 'log', 'debug', 'verbose']
      : ['fatal', 'error', 'warn']; // the boot chatter ("embedded PostgreSQL ready") is not the operator's answer

/** Boots the database and the contexts (no HTTP), makes the command's one call, closes. */
export async function execute(
  invocation: Invocation,
  config: AppConfig,
  progress: (line: string) => void = () => undefined,
): Promise<object> {
  const levels = nestLogLevels(config);
  const app = await NestFactory.createApplicationContext(OpsModule.forRoot(config), {
    logger: levels.length > 0 ? new StderrLogger({ logLevels: levels }) : false,
    abortOnError: false,
  });
  try {
    // outside HTTP every unit of work opens its own context (the global one is disallowed)
    return await RequestContext.create(app.get(MikroORM).em, () =>
      invocation.command.run(app, invocation.input, progress),
    );
  } finally {
    await app.close();
  }
}

/** The whole CLI: returns the exit status; the result goes to `out`, any failure as one line to `err`. */
export async function runOps(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: NodeJS.WritableStream = process.stdout,
  err: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  try {
    const invocation = parseInvocation(argv);
    if (invocation === 'help') {
      out.write(`${usage()}\n`);
      return 0;
    }
    if ('help' in invocation) {
      out.write(`${commandHelp(invocation.help)}\n`);
      return 0;
    }
    const result = await execute(invocation, AppConfig.fromEnv(env), (line) => err.write(`${line}\n`));
    out.write(`${invocation.json ? JSON.stringify(result) : invocation.command.describe(result)}\n`);
    return 0;
  } catch (error) {
    err.write(`${failureLine(error)}\n`);
    return 1;
  }
}

function failureLine(error: unknown): string {
  if (error instanceof UsageError || error instanceof ConfigError) return error.message;
  if (error instanceof DomainError) return `${error.code}: ${error.message}`;
  const message = error instanceof Error ? error.message : String(error);
  return `ops failed: ${message.replace(/\s+/g, ' ').trim()}`;
}
