import {
  ArgumentMetadata,
  Injectable,
  PipeTransform,
  Type,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { getMetadataStorage, type ValidatorOptions } from 'class-validator';
import { DomainError, validationFailed } from '../errors/domain-error';
import { ValidationIssue } from '../errors/error-codes';

/**
 * Nested class-validator errors as `[{ path, message }]`, paths dotted (`lanes.0.name`). A field
 * class-validator saw as undefined is missing: it says so, whatever rule `stopAtFirstError` hit
 * first (`@MaxLength` would otherwise answer for a missing `firstName`).
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ValidationIssue[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    const own = (messages.length > 0 && isMissing(error) ? [`${error.property} is required`] : messages).map(
      (message) => ({ path, message }),
    );
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

// class-validator always sets `value` on the errors it makes; the Nest pipe deletes it from parents
const isMissing = (error: ValidationError): boolean =>
  Object.prototype.hasOwnProperty.call(error, 'value') && error.value === undefined;

/** A UTF-16 surrogate without its pair: no Unicode text holds one (`JSON.parse('"\\ud800"')` makes it). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Path of the first string (a value, or a field's name) that the database cannot store as text,
 * and why, if any: a NUL character (PostgreSQL text and jsonb refuse it), or a lone surrogate
 * (validator's rules throw on one; the driver would store U+FFFD in its place).
 */
export function findUnstorableText(value: unknown): { path: string; message: string } | null {
  const problem = (text: string): string | null =>
    text.includes('\u0000')
      ? 'must not contain a NUL character'
      : LONE_SURROGATE.test(text)
        ? 'must be well-formed Unicode text (a lone surrogate)'
        : null;
  const pending: [unknown, string][] = [[value, '']];
  while (pending.length > 0) {
    const [item, path] = pending.pop() as [unknown, string];
    if (typeof item === 'string') {
      const message = problem(item);
      if (message) return { path, message };
    } else if (item !== null && typeof item === 'object') {
      // reversed onto the stack, so the first field is looked at first
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const childPath = path ? `${path}.${key}` : key;
        const message = problem(key);
        if (message) return { path: childPath, message: `field name ${message}` };
        pending.push([child, childPath]);
      }
    }
  }
  return null;
}

/**
 * Fields whose shape is not the one their nested rule declares: an array where one object goes
 * (`boundingBox: []`), an object where a list of them goes, or an array as one of that list's
 * items (`listings: [[]]`). class-validator checks each item of
 * an array given for one object and lets `[]` through, so the route then reads fields of an array.
 */
export function misshapenFields(instance: object): ValidationError[] {
  const errors: ValidationError[] = [];
  for (const rule of nestedRulesOf(instance.constructor)) {
    const value = (instance as Record<string, unknown>)[rule.propertyName];
    if (value === null || typeof value !== 'object') continue;
    const list = rule.each === true;
    if (Array.isArray(value) !== list) {
      const shape = list ? 'an array' : 'an object';
      errors.push(shapeError(rule.propertyName, value, `${rule.propertyName} must be ${shape}`));
      continue;
    }
    const items = list ? (value as unknown[]) : [value];
    const children = items.flatMap((item, i) => {
      if (list && Array.isArray(item))
        return [shapeError(String(i), item, `each of ${rule.propertyName} must be an object`)];
      if (item === null || typeof item !== 'object') return [];
      const inner = misshapenFields(item);
      return !list ? inner : inner.length ? [{ ...shapeError(String(i), item), children: inner }] : [];
    });
    if (children.length) errors.push({ ...shapeError(rule.propertyName, value), children });
  }
  return errors;
}

type NestedRule = { propertyName: string; each?: boolean };
const nestedRules = new WeakMap<object, NestedRule[]>();

/** A DTO class's nested rules, one per field, read once per class (every body is checked). */
function nestedRulesOf(target: object): NestedRule[] {
  let rules = nestedRules.get(target);
  if (!rules) {
    const seen = new Set<string>();
    rules = getMetadataStorage()
      .getTargetValidationMetadatas(target as new () => object, '', true, false)
      .filter(
        (rule) =>
          rule.type === 'nestedValidation' && !seen.has(rule.propertyName) && seen.add(rule.propertyName),
      )
      .map(({ propertyName, each }) => ({ propertyName, each }));
    nestedRules.set(target, rules);
  }
  return rules;
}

const shapeError = (property: string, value: unknown, message?: string): ValidationError => ({
  property,
  value,
  constraints: message ? { shape: message } : undefined,
  children: [],
});

/**
 * The one validation pipe: transforms to DTO classes, drops unknown fields and query parameters
 * (spec: ignored, not rejected), and refuses with 400 VALIDATION_FAILED + `details.issues`.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: false,
      stopAtFirstError: true,
      exceptionFactory: (errors) => validationFailed(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // what the caller sent (not a custom decorator's value, such as the principal)
    const sent = metadata.type === 'body' || metadata.type === 'query' || metadata.type === 'param';
    const unstorable = sent ? findUnstorableText(value) : null;
    if (unstorable !== null) {
      const path = metadata.type === 'param' ? (metadata.data ?? '') : unstorable.path;
      throw validationFailed([{ path, message: unstorable.message }]);
    }
    // path parameters are parsed by their own pipes (IntParam, UuidParam) from the raw text:
    // Number('1e3') must not turn a malformed lead id into lead 1000
    if (metadata.type === 'param' && this.isPrimitiveOrBuiltin(metadata.metatype)) return value;
    const isDto = typeof metadata.metatype === 'function' && !this.isPrimitiveOrBuiltin(metadata.metatype);
    if (metadata.type === 'body' && isDto) {
      if (value === undefined) value = {};
      if (value === null || typeof value !== 'object') {
        // what a strict JSON parser refuses: not an object or array at all
        throw new DomainError('BAD_REQUEST', 'The body must be a JSON object.');
      }
      if (Array.isArray(value)) {
        throw validationFailed([{ path: '', message: 'body must be a JSON object' }]);
      }
    }
    return super.transform(value, metadata);
  }

  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    const misshapen = misshapenFields(object);
    return misshapen.length ? misshapen : super.validate(object, options);
  }

  private isPrimitiveOrBuiltin(metatype: unknown): boolean {
    return [String, Boolean, Number, Array, Object].includes(metatype as never);
  }
}

/**
 * `@Body(NullableBody(Dto)) body: Dto | null`: a route whose whole body may be JSON `null` (a PUT
 * that returns a setting to its default). `null` passes as null; anything else is validated as
 * `Dto` by the one validation pipe (the global pipe leaves a `Dto | null` parameter alone, since
 * its reflected type is `Object`).
 */
export function NullableBody<T extends object>(dto: Type<T>): PipeTransform<unknown, Promise<T | null>> {
  const pipe = new RequestValidationPipe();
  return {
    transform: async (value: unknown, metadata: ArgumentMetadata) =>
      value === null ? null : ((await pipe.transform(value, { ...metadata, metatype: dto })) as T),
  };
}
