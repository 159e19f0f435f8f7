import { z } from 'zod';
import { BROCHURE_LIST_STATUSES } from '@app/brochures';
import { ISO_TIME } from './schemas';
import { ID, INT } from './view-schemas';

/** Brochures (spec "Brochure") as zod. */

/** `GET /v1/brochures` (`ListBrochuresQueryDto`). */
export const listBrochuresInput = {
  page: z.number().int().min(1).optional().describe('Default 1.'),
  limit: z.number().int().min(1).max(20).optional().describe('Default 20.'),
  status: z
    .enum(BROCHURE_LIST_STATUSES)
    .optional()
    .describe('Default `all`; `expired`: an active brochure whose `expiresAt` has passed.'),
  q: z
    .string()
    .max(255)
    .optional()
    .describe('Case-insensitive starts-with on the title, the recipient’s name or the slug.'),
  createdById: z
    .string()
    .optional()
    .describe('Only brochures this person created (UUID). Admins only (a member: ORG_ADMIN_REQUIRED).'),
};

export const brochureRow = z.object({
  id: ID,
  slug: z.string(),
  title: z.string(),
  recipientName: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']).describe('`expired` as soon as `expiresAt` passes.'),
  creatorUserId: ID,
  showLocations: z.boolean(),
  listingCount: INT,
  expiresAt: ISO_TIME,
  viewCount: INT,
  lastViewedAt: ISO_TIME.nullable(),
  createdAt: ISO_TIME,
  publicUrl: z.string().describe('The public page, `{PUBLIC_BASE_URL}/b/<slug>`.'),
});

export const brochurePageOutput = z.object({
  data: z.array(brochureRow).describe('Newest first.'),
  hasMore: z.boolean(),
  total: INT.describe('Every brochure the filters match.'),
});
