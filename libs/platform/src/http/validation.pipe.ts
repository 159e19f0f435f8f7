import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { validationFailed } from '../errors/domain-error';
import { ValidationIssue } from '../errors/error-codes';

/** Nested class-validator errors as `[{ path, message }]`, paths dotted (`lanes.0.name`). */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ValidationIssue[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({ path, message }));
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

/** Path of the first string holding a NUL character (PostgreSQL text cannot store one), if any. */
export function findNulCharacter(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const found = findNulCharacter(child, path ? `${path}.${key}` : key);
    if (found !== null) return found;
  }
  return null;
}

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
    // path parameters are parsed by their own pipes (IntParam, UuidParam) from the raw text:
    // Number('1e3') must not turn a malformed lead id into lead 1000
    if (metadata.type === 'param' && this.isPrimitiveOrBuiltin(metadata.metatype)) return value;
    const isDto = typeof metadata.metatype === 'function' && !this.isPrimitiveOrBuiltin(metadata.metatype);
    if (metadata.type === 'body' || metadata.type === 'query') {
      const path = findNulCharacter(value);
      if (path !== null) throw validationFailed([{ path, message: 'must not contain a NUL character' }]);
    }
    if (metadata.type === 'body' && isDto) {
      if (value === undefined) value = {};
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw validationFailed([{ path: '', message: 'body must be a JSON object' }]);
      }
    }
    return super.transform(value, metadata);
  }

  private isPrimitiveOrBuiltin(metatype: unknown): boolean {
    return [String, Boolean, Number, Array, Object].includes(metatype as never);
  }
}
