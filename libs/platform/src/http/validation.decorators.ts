import { ValidateIf } from 'class-validator';

/**
 * A body field that may be left out but never sent as null. class-validator's `IsOptional` skips
 * every rule for null too, which lets null through to not-null columns (a 500 instead of a 400).
 */
export const IsOmittable = () => ValidateIf((_, value) => value !== undefined);
