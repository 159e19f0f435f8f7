import { UuidParam } from '@app/platform';

/**
 * Path parameters of a tool's `/v1` route read by the route's own parameter pipes, so a tool
 * refuses exactly what the route refuses (VALIDATION_FAILED naming the parameter) and takes the
 * value as the route does (a UUID lower-cased). Bodies and queries go through `asDto` (dto.ts).
 */

/** A `{name}` UUID path parameter, lower-cased (else VALIDATION_FAILED naming it). */
export const uuidParam = (value: unknown, name: string): string =>
  new UuidParam().transform(String(value), { type: 'param', data: name });
