import type { Type } from '@nestjs/common';
import { IntParam, NullableBody, UuidParam } from '@app/platform';

/**
 * A tool's input read exactly as its `/v1` route reads the same values: the route's own DTO class
 * through the platform's one validation pipe (unknown fields dropped, the same rules, the same
 * VALIDATION_FAILED issues and paths, the DTO's transforms and defaults), and path parameters
 * through the route's parameter pipes. The zod input schema is what the client is shown; this is
 * what the route enforces.
 */
export async function asRouteDto<T extends object>(
  dto: Type<T>,
  type: 'query' | 'body',
  input: object,
): Promise<T> {
  // NullableBody runs the platform's RequestValidationPipe with `dto` as the metatype
  const pipe = NullableBody(dto);
  return (await pipe.transform(withoutUndefined(input), { type, metatype: dto })) as T;
}

/** A `{name}` UUID path parameter, lower-cased (else VALIDATION_FAILED naming it). */
export const uuidParam = (value: unknown, name: string): string =>
  new UuidParam().transform(String(value), { type: 'param', data: name });

/** A `{name}` integer path parameter (lead ids; else VALIDATION_FAILED naming it). */
export const intParam = (value: unknown, name: string): number =>
  new IntParam().transform(String(value), { type: 'param', data: name });

/** The route never sees a field sent as undefined: drop those keys before the DTO reads them. */
const withoutUndefined = (input: object): Record<string, unknown> =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
