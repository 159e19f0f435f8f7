import { z } from 'zod';

/** Zod pieces the tool groups share: the `/v1` parameter rules and answer shapes they repeat. */

export const LEAD_ID = z
  .number()
  .int()
  .min(1)
  .max(Number.MAX_SAFE_INTEGER)
  .describe('The lead id (an integer).');
export const UUID = z.uuid();
/** An id parameter as the routes take it (`UuidParam`: any 8-4-4-4-12 hex). */
export const UUID_INPUT = z.guid().transform((id) => id.toLowerCase());
export const ISO_TIME = z.string().describe('ISO 8601 date-time (UTC).');
export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();

/** A page of `{data, hasMore, page, limit, total}`. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    hasMore: z.boolean(),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
  });

/** A capped list `{data, hasMore}`. */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), hasMore: z.boolean() });

/** Offset paging `{data, hasMore, nextOffset, total}`. */
export const offsetPageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    hasMore: z.boolean(),
    nextOffset: z.number().int().nullable(),
    total: z.number().int(),
  });

/** `page` and `limit` of a page-paged `/v1` list (1.., 1..max). */
export const pageInput = (max: number, fallback: number) => ({
  page: z.number().int().min(1).default(1).describe('From 1.'),
  limit: z.number().int().min(1).max(max).default(fallback).describe(`1-${max}, default ${fallback}.`),
});

/** `offset` and `limit` of an offset-paged `/v1` list. */
export const offsetInput = (max: number, fallback: number) => ({
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(max).default(fallback).describe(`1-${max}, default ${fallback}.`),
});
