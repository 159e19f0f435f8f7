import { z } from 'zod';
import {
  OPEN_HOUSE_SCOPES,
  OPEN_HOUSE_STATUSES,
  OPEN_HOUSE_VISIBILITIES,
  RSVP_STATUSES,
  VIEWING_KINDS,
  VIEWING_STATUSES,
} from '@app/network';
import { ISO_TIME, LEAD_ID, offsetPageOf } from './schemas';
import { ID, INT } from './view-schemas';

/** Viewings and open houses (spec "Viewings, open houses") as zod. */

const INSTANT = 'ISO 8601 date-time with `Z` or an offset.';

/** `GET /v1/viewings` (`ListViewingsQueryDto`). */
export const listViewingsInput = {
  offset: z.number().int().min(0).optional().describe('Default 0.'),
  limit: z.number().int().min(1).max(100).optional().describe('Default 20.'),
  from: z.string().optional().describe(`Inclusive: \`viewingAt\` at or after. ${INSTANT}`),
  to: z.string().optional().describe(`Exclusive: \`viewingAt\` before. ${INSTANT}`),
  status: z.enum(VIEWING_STATUSES).optional(),
  kind: z.enum(VIEWING_KINDS).optional(),
  propertyListingId: z.string().optional().describe('A listing id (UUID).'),
  leadId: LEAD_ID.optional().describe('The viewing’s lead or one of its other clients.'),
  collaboratorLeadId: LEAD_ID.optional(),
  dealId: z.string().optional().describe('A deal id (UUID).'),
  agentUserId: z.string().optional().describe('The agent, a member (UUID).'),
};

export const viewing = z.object({
  id: ID,
  propertyListingId: ID.nullable().describe('The listing shown.'),
  leadId: INT.describe('The viewing’s lead.'),
  otherLeadIds: z.array(INT).describe('Other clients of the same viewing (leads).'),
  collaboratorLeadId: INT.nullable(),
  agentUserId: ID.nullable().describe('The agent (a member).'),
  dealId: ID.nullable().describe('A deal of the lead.'),
  viewingAt: ISO_TIME,
  kind: z.enum(VIEWING_KINDS),
  status: z.enum(VIEWING_STATUSES),
  source: z.string().describe('`api` (an API key), `user` (the dashboard) or `integration:<connector>`.'),
  createdBy: ID.nullable(),
  createdAt: ISO_TIME,
  updatedAt: ISO_TIME,
  notes: z.string().nullable().describe('Lists show the first 500 characters.'),
  notesTruncated: z.boolean().describe('True when the list cut the notes.'),
});

export const viewingPageOutput = offsetPageOf(viewing);

/** `GET /v1/open-houses` (`ListOpenHousesQueryDto`). */
export const listOpenHousesInput = {
  scope: z
    .enum(OPEN_HOUSE_SCOPES)
    .optional()
    .describe(
      '`network` (default): other agencies’ upcoming network events; `mine`: your agency’s, any status.',
    ),
  from: z.string().optional().describe(`Events ending after it (network: default now). ${INSTANT}`),
  to: z.string().optional().describe(`Events starting before it. ${INSTANT}`),
  area: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('A prefix of the listing’s city or community (case- and accent-insensitive).'),
  source: z.string().min(1).max(50).optional().describe('The listing’s source (`internal`).'),
  listingSource: z.string().min(1).max(50).optional().describe('With `listingId` only.'),
  listingId: z.string().min(1).max(255).optional().describe('With `listingSource` only.'),
  listingCountry: z.string().optional().describe('ISO 3166-1 alpha-2 code of the listing’s country.'),
  limit: z.number().int().min(1).max(25).optional().describe('Default 10.'),
};

export const openHouseRow = z.object({
  id: ID,
  status: z.enum(OPEN_HOUSE_STATUSES).describe('`ended` once `endsAt` has passed.'),
  visibility: z.enum(OPEN_HOUSE_VISIBILITIES).describe('`network`: other agencies see it too.'),
  startsAt: ISO_TIME,
  endsAt: ISO_TIME,
  timezone: z.string().describe('IANA zone of the event.'),
  host: z.object({ organizationId: ID, name: z.string().describe('The agency’s name.') }),
  isHost: z.boolean().describe('The caller’s agency holds it.'),
  commissionOffer: z.string().nullable().describe('The percent the listing offers to the network, or null.'),
  commissionNotes: z.string().nullable(),
  goingCount: INT.describe('RSVPs answering `going`.'),
  myRsvp: z.enum(RSVP_STATUSES).nullable().describe('The caller’s answer, or null.'),
  listingRef: z.object({ source: z.literal('internal'), id: ID }),
  listing: z.object({
    title: z.string(),
    reference: z.string().nullable(),
    propertyType: z.string(),
    city: z.string(),
    area: z.number().nullable().describe('Living area.'),
    price: z.string().describe('Decimal string.'),
    currency: z.string(),
    bedrooms: INT.nullable(),
    bathrooms: z.number().nullable(),
    mainImageUrl: z.string().nullable(),
  }),
});

export const openHouseListOutput = z.object({
  data: z.array(openHouseRow),
  hasMore: z.boolean().describe('More events match: narrow the filters.'),
});
