import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateIf } from 'class-validator';

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
