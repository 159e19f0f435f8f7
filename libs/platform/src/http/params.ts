import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { validationFailed } from '../errors/domain-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a uuid in its usual text form (any case, any version). */
export const isUuid = (value: string): boolean => UUID.test(value);

/** A uuid path parameter; anything else is 400 VALIDATION_FAILED naming the parameter. */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isUuid(value))
      throw validationFailed([
        { path: metadata.data ?? 'id', message: `${metadata.data ?? 'id'} must be a UUID` },
      ]);
    return value.toLowerCase();
  }
}

/** An integer path parameter (lead ids); anything else is 400 VALIDATION_FAILED. */
@Injectable()
export class IntParam implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const n = Number(value);
    if (!/^\d{1,15}$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
      throw validationFailed([
        { path: metadata.data ?? 'id', message: `${metadata.data ?? 'id'} must be a positive integer` },
      ]);
    }
    return n;
  }
}

const EXTERNAL_ID = /^[\x21-\x7e]{1,255}$/;

/**
 * A connector's id of a record in a path (`/integrations/v1/<kind>/{externalId}`): 1-255 visible
 * ASCII characters; anything else is 400 VALIDATION_FAILED.
 */
@Injectable()
export class ExternalIdParam implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!EXTERNAL_ID.test(value))
      throw validationFailed([
        {
          path: metadata.data ?? 'externalId',
          message: `${metadata.data ?? 'externalId'} must be 1-255 visible ASCII characters`,
        },
      ]);
    return value;
  }
}

/**
 * The status of an upsert by external id (`PUT /integrations/v1/…/{externalId}`): 201 when this
 * write created the record, 200 when it replaced it. The one place that mapping lives.
 */
export function upserted<T extends { created: boolean }>(
  res: { status(code: number): unknown },
  result: T,
): T {
  res.status(result.created ? 201 : 200);
  return result;
}
