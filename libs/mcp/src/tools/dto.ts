import type { Type } from '@nestjs/common';
import { RequestValidationPipe } from '@app/platform';

const pipe = new RequestValidationPipe();

/**
 * A tool input run through the mirrored route's own DTO class and the app's validation pipe, so a
 * tool takes exactly what the route takes (its class-validator rules and transforms; 400-style
 * VALIDATION_FAILED with `details.issues` otherwise). For routes whose parameters need more than
 * the zod schema says (dates, money, lists).
 */
export async function asDto<T extends object>(
  dto: Type<T>,
  type: 'query' | 'body',
  input: Record<string, unknown>,
): Promise<T> {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  return (await pipe.transform(defined, { type, metatype: dto })) as T;
}
