import { z } from 'zod';
import { ListingSearchDto, ListingSearchQueries, ListingsQueries } from '@app/listings';
import { listingRecordOutput, listingSearchInput, listingSearchOutput } from './listings.schemas';
import { asDto } from './dto';
import { uuidParam } from './route-input';
import { defineTool } from './tool';

/** Property search and one listing (the listing family's API-key routes; no `/v1` twin). */
export const LISTING_TOOLS = [
  defineTool({
    name: 'search_properties',
    title: 'Search listings',
    description:
      'Scope `own` (default): the agency’s own listings, every status (listings are agency-wide: a member ' +
      'reads them all); `network`: other agencies’ ACTIVE listings shared on the network. Filters are ' +
      'AND-ed; areas in m²; `{data, page, limit, total, hasMore}` with an exact total; summaries never carry ' +
      '`commission`.',
    route: 'POST /properties/search',
    input: z.object(listingSearchInput),
    output: listingSearchOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) =>
      get(ListingSearchQueries).search(
        principal.organizationId,
        await asDto(ListingSearchDto, 'body', input),
      ),
  }),
  defineTool({
    name: 'get_property',
    title: 'Read a listing',
    description:
      'An own listing, or another agency’s on the network (ACTIVE and network-visible): then without ' +
      '`commission`, exact coordinates only when it shows its exact location, the agent’s contact only ' +
      'when shared. NOT_FOUND otherwise.',
    route: 'GET /properties/{id}',
    input: z.object({ id: z.string().describe('The listing id (UUID).') }),
    output: listingRecordOutput,
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(ListingsQueries).get(principal, uuidParam(input.id, 'id')),
  }),
];
