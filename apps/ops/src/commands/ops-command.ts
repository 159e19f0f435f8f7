import type { INestApplicationContext } from '@nestjs/common';
import type { ParseArgsConfig } from 'node:util';

/** Flag declarations in `node:util` parseArgs form; `--json` is added to every command. */
export type Flags = NonNullable<ParseArgsConfig['options']>;
export type FlagValues = Record<string, string | boolean | undefined>;

/** A mistake in the command line: one line on stderr, exit 1, nothing booted. */
export class UsageError extends Error {}

/**
 * One operator command: `npm run ops -- <name> <flags> [--json]`. It reads its flags before
 * anything boots, then makes one application-service call; the runner prints the result.
 */
export interface OpsCommand<Input = unknown, Result extends object = object> {
  name: string;
  /** The flags, as shown in usage lines: `--org <organizationId> --active|--inactive`. */
  usage: string;
  summary: string;
  flags: Flags;
  /** One line per flag for `<command> --help`, keyed by flag name. */
  options: Record<string, string>;
  /** Checks the flags; throws UsageError for a missing, conflicting or malformed one. */
  parse(values: FlagValues): Input;
  /** The one service call, inside its own MikroORM context; `progress` writes a line to stderr. */
  run(app: INestApplicationContext, input: Input, progress: (line: string) => void): Promise<Result>;
  /** The result for people; `--json` prints the result object itself. */
  describe(result: Result): string;
}

export const usageLine = (command: Pick<OpsCommand, 'name' | 'usage'>): string =>
  `npm run ops -- ${command.name}${command.usage ? ` ${command.usage}` : ''} [--json]`;

/** `--org <id>`: present and non-empty. */
export function requiredString(values: FlagValues, flag: string): string {
  const value = values[flag];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${flag} is required`);
  return value.trim();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `--org`: a required organization id (a UUID), lower-cased. */
export function organizationFlag(values: FlagValues): string {
  const organizationId = requiredString(values, 'org');
  if (!UUID.test(organizationId)) throw new UsageError('--org must be an organization id (a UUID)');
  return organizationId.toLowerCase();
}

/** Exactly one of a set of switches (`--active` / `--inactive`), mapped to its value. */
export function exactlyOne<T>(values: FlagValues, choices: Record<string, T>): T {
  const given = Object.keys(choices).filter((flag) => values[flag] === true);
  if (given.length !== 1) {
    throw new UsageError(
      `give exactly one of ${Object.keys(choices)
        .map((f) => `--${f}`)
        .join(', ')}`,
    );
  }
  return choices[given[0]];
}

/** `--leads N`: a whole number within bounds; `fallback` when the flag is absent. */
export function integerFlag(
  values: FlagValues,
  flag: string,
  bounds: { min: number; max: number },
  fallback?: number,
): number {
  const raw = values[flag];
  if (raw === undefined && fallback !== undefined) return fallback;
  const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < bounds.min || value > bounds.max) {
    throw new UsageError(`--${flag} must be a whole number from ${bounds.min} to ${bounds.max}`);
  }
  return value;
}

/** `<command> --help`: the usage line, the summary and one line per option. */
export function commandHelp(command: OpsCommand): string {
  const options = { ...command.options, json: 'print the result as one JSON object on stdout' };
  return [
    `Usage: ${usageLine(command)}`,
    '',
    `  ${command.summary}`,
    '',
    'Options:',
    ...Object.entries(options).map(([flag, text]) => `  ${`--${flag}`.padEnd(14)} ${text}`),
  ].join('\n');
}
