/**
 * What a log line may say about an error: its class, its SQLSTATE (or driver code), the failed
 * statement's shape or prepared name, and a message with every value taken out. Never a
 * parameter, a body or a stored answer: they hold names, emails and phone numbers.
 */
export interface LoggableError {
  /** The error class: `UniqueConstraintViolationException`, `DriverException`, `TypeError`… */
  name: string;
  /** SQLSTATE (`23505`, `57P01`, `P0001`…) or the driver's code (`ECONNREFUSED`). */
  code?: string;
  /** The statement's shape (literals replaced by `?`), or a prepared statement's name and text. */
  statement?: string;
  message: string;
  /** Names PostgreSQL reports with the error (schema objects, never values). */
  table?: string;
  column?: string;
  constraint?: string;
  /** Stack frames only: the first line of a stack repeats the message, values included. */
  stack?: string;
}

const STATEMENT_MAX = 500;
const MESSAGE_MAX = 500;
/** Free text is cut here before it is scrubbed, so no pattern ever runs over a huge string. */
const TEXT_READ_MAX = 2_000;
const FRAMES_MAX = 15;

/** Where `preparedRows` notes the statement that failed (its name and `$n` text carry no value). */
export const PREPARED_STATEMENT = 'preparedStatement';

/** Marks a driver error with the prepared statement it came from, so the log can name it. */
export function withPreparedStatement<E>(err: E, name: string, text: string): E {
  if (err !== null && typeof err === 'object') {
    (err as Record<string, unknown>)[PREPARED_STATEMENT] = `${name}: ${oneLine(text)}`;
  }
  return err;
}

/**
 * Statements as knex and MikroORM put them in an error message: `<SQL with values inlined> -
 * <server message>`. Recognised by the leading keyword.
 */
const SQL_START =
  /^\s*\(?\s*(select|insert|update|delete|with|begin|commit|rollback|savepoint|release|set|create|drop|alter|do|call|lock|copy|truncate|explain|values|prepare|execute|deallocate|discard|listen|notify|reset|analyze|vacuum|refresh)\b/i;

/** `Name: message`, as `String(err)` renders an error (pg's own errors say `error: …`). */
const NAMED = /^([A-Za-z]\w*(?:Error|Exception)|error): ([\s\S]*)$/;

/** Single-quoted literals (`''` inside; `E'…'` doubles backslashes) and dollar-quoted bodies. */
const QUOTED_LITERAL = /(?<![\w$])[EeXxBbNn]?'(?:[^']|'')*'/g;
const DOLLAR_QUOTED = /\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$/g;
/** A number standing alone (not part of a name, a `$1` placeholder or a quoted identifier). */
const NUMBER = /(?<![\w$".])-?\d+(?:\.\d+)?(?:e[+-]?\d+)?(?![\w".])/gi;
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g;
/** Seven digits and more with spaces, dashes or brackets between them: a phone number. */
const PHONE = /(?<![\w-])\+?\(?\d[\d ()-]{5,}\d(?![\w-])/g;
/** In a server message a double-quoted word names an object after these words, else it is a value. */
const OBJECT_WORDS =
  /(relation|table|column|constraint|index|type|function|schema|sequence|trigger|database|role|view|operator|extension|cursor|statement|savepoint|channel)\s*$/i;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** SQL text with its values replaced by `?`: literals, dollar-quoted bodies and bare numbers. */
export function sqlShape(sql: string): string {
  return truncate(
    oneLine(sql.replace(DOLLAR_QUOTED, '?').replace(QUOTED_LITERAL, '?').replace(NUMBER, '?')),
    STATEMENT_MAX,
  );
}

/**
 * Free text (a server or driver message) without what may be a value: quoted strings (a quoted
 * name right after `relation`, `constraint`, `column`… stays), emails, phone numbers.
 */
export function scrubText(text: string): string {
  const unquoted = text
    .slice(0, TEXT_READ_MAX)
    .replace(DOLLAR_QUOTED, '?')
    .replace(QUOTED_LITERAL, '?')
    .replace(/"((?:[^"]|"")*)"/g, (quoted, inner: string, offset: number, whole: string) =>
      OBJECT_WORDS.test(whole.slice(Math.max(0, offset - 20), offset)) && /^[\w.]{1,63}$/.test(inner)
        ? quoted
        : '"?"',
    );
  return truncate(oneLine(unquoted.replace(EMAIL, '?').replace(PHONE, '?')), MESSAGE_MAX);
}

/** A message as knex and MikroORM write it, split into the statement's shape and the server's words. */
function splitStatement(message: string): { statement?: string; message: string } {
  if (!SQL_START.test(message)) return { message: scrubText(message) };
  // values go first, so a ` - ` inside one cannot be taken for the separator
  const masked = message.replace(DOLLAR_QUOTED, '?').replace(QUOTED_LITERAL, '?');
  const separator = masked.lastIndexOf(' - ');
  if (separator < 0) return { statement: sqlShape(masked), message: '' };
  return {
    statement: sqlShape(masked.slice(0, separator)),
    message: scrubText(masked.slice(separator + 3)),
  };
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** A schema object's name as the server reports it; anything else is dropped. */
const objectName = (value: unknown): string | undefined => {
  const name = text(value);
  return name && /^[\w.]{1,63}$/.test(name) ? name : undefined;
};

function frames(stack: unknown): string | undefined {
  const lines = text(stack)
    ?.split('\n')
    .filter((line) => /^\s*at \S/.test(line))
    .slice(0, FRAMES_MAX)
    .map((line) => line.trim());
  return lines && lines.length > 0 ? lines.join('\n') : undefined;
}

/**
 * An error (or what `String(err)` or pino's serializer made of one) as a log line may carry it.
 * The one place values are taken out: the envelope filter, the jobs and the logger use it.
 */
export function loggableError(err: unknown): LoggableError {
  if (err === null || (typeof err !== 'object' && typeof err !== 'string')) {
    return { name: 'Error', message: scrubText(String(err)) };
  }
  if (typeof err === 'string') {
    const named = NAMED.exec(err);
    return { name: named?.[1] ?? 'Error', ...splitStatement(named?.[2] ?? err) };
  }
  const e = err as Record<string, unknown>;
  // pino's serializer keeps the class as `type`; MikroORM's exceptions set `name` to it
  const name = text(e.name) ?? text(e.type) ?? text(e.constructor?.name) ?? 'Error';
  const split = splitStatement(text(e.message) ?? '');
  const prepared = text(e[PREPARED_STATEMENT]);
  const code = text(e.sqlState) ?? text(e.code);
  // a statement already reduced (a LoggableError logged again) keeps its shape
  const statement = prepared ?? text(e.statement) ?? split.statement;
  const out: LoggableError = {
    name: objectName(name) ?? 'Error',
    ...(code !== undefined && /^[\w-]{1,40}$/.test(code) ? { code } : {}),
    ...(statement !== undefined
      ? { statement: prepared ? truncate(statement, STATEMENT_MAX) : sqlShape(statement) }
      : {}),
    message: split.message,
  };
  for (const key of ['table', 'column', 'constraint'] as const) {
    const value = objectName(e[key]);
    if (value !== undefined) out[key] = value;
  }
  const stack = frames(e.stack);
  if (stack !== undefined) out.stack = stack;
  return out;
}

/**
 * A log message written as `String(err)` (`log.warn(String(err))`): a database error in it is
 * reduced to its class, statement shape and scrubbed message; any other text loses its emails.
 */
export function scrubLogMessage(message: string): string {
  const named = NAMED.exec(message);
  const body = named?.[2] ?? message;
  if (!SQL_START.test(body) || !body.includes(' - ')) {
    return message.length > TEXT_READ_MAX ? scrubText(message) : message.replace(EMAIL, '?');
  }
  const { statement, message: said } = splitStatement(body);
  return `${named ? `${named[1]}: ` : ''}${statement} - ${said}`;
}
