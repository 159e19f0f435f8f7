import { z } from 'zod';

/**
 * Small zod pieces the tool groups of H5 (queues, search, listings, documents, network,
 * brochures, offers) share: the JSON shapes `/v1` answers with, as the OpenAPI views say them.
 */

export const uuid = () => z.string().describe('A UUID.');
export const dateTime = () => z.string().describe('ISO 8601 date-time (UTC).');
export const nullable = <T extends z.ZodType>(schema: T) => schema.nullable();
export const integer = () => z.number().int();
export const leadId = () =>
  z
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .describe('A lead id (integer).');

/** `{data, hasMore, nextOffset, total}`: offset paging with the exact total. */
export const offsetPage = <T extends z.ZodType>(row: T, what: string) =>
  z.object({
    data: z.array(row).describe(what),
    hasMore: z.boolean().describe('While true, send `nextOffset` as the next `offset`.'),
    nextOffset: integer().nullable(),
    total: integer().describe('Exact number of rows matching the filters.'),
  });
