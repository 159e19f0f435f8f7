import { z } from 'zod';

/** Pieces of the answers H5's tool groups declare (besides `schemas.ts`): ids and counts as `/v1` writes them. */

/** A UUID as an answer carries it (the route's own text; checked as a string). */
export const ID = z.string().describe('A UUID.');
/** A whole number of an answer. */
export const INT = z.number().int();
