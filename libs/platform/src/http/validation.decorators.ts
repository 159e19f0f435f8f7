import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  buildMessage,
  IsInt,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';

/**
 * A body field that may be left out but never sent as null. class-validator's `IsOptional` skips
 * every rule for null too, which lets null through to not-null columns (a 500 instead of a 400).
 */
export const IsOmittable = () => ValidateIf((_, value) => value !== undefined);

export interface NullableFieldDoc {
  maxLength?: number;
  format?: string;
  example?: string | number | boolean;
  description?: string;
}

/**
 * Documentation of an optional field that may be sent as null. A `T | null` property reflects as
 * `Object` (decorator metadata cannot name a union), so `@ApiPropertyOptional({ nullable: true })`
 * alone documents `{"type":"object"}` and generated clients refuse a string: the type is required.
 */
export const ApiNullable = (
  type: StringConstructor | NumberConstructor | BooleanConstructor,
  doc: NullableFieldDoc = {},
) => ApiPropertyOptional({ ...doc, type, nullable: true });

/** Whether a finite `value` has at most `places` decimals, whichever way JavaScript prints it. */
const hasAtMostDecimals = (value: number, places: number): boolean => Number(value.toFixed(places)) === value;

/**
 * A finite JSON number with at most `places` decimals (prices). class-validator's
 * `IsNumber({ maxDecimalPlaces })` throws on a number printed in exponent form (`1e-7`), a 500.
 */
export const IsDecimalNumber = (places: number, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isNumber',
      constraints: [places],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'number' && Number.isFinite(value) && hasAtMostDecimals(value, places),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a number conforming to the specified constraints`,
          options,
        ),
      },
    },
    options,
  );

/**
 * A whole-number id in a body (a lead's): 1 to 2^53 - 1, what a bigint column holds and a
 * JavaScript number keeps exact. Past it the database refused the value (a 500); `{ each: true }`
 * for a list of ids.
 */
export const IsIntegerId = (options?: ValidationOptions) =>
  applyDecorators(IsInt(options), Min(1, options), Max(Number.MAX_SAFE_INTEGER, options));
