import { z } from 'zod';
import { ListingMatchesDto, ListingMatchesService, SearchDto, SearchService } from '@app/search';
import { SharedToolLimit } from './shared-tool-limit';
import { asDto } from './dto';
import {
  listingMatchesInput,
  listingMatchesOutput,
  searchInput,
  searchOutput,
  type SearchAnswer,
} from './search.schemas';
import { defineTool } from './tool';
import type { UntrustedText } from './untrusted';

/** Evidence passages a customer or a third party wrote (flagged `untrusted` by the route). */
export const untrustedEvidence = (answer: SearchAnswer): UntrustedText[] =>
  answer.matches.flatMap((match, m) =>
    match.evidence.flatMap((evidence, e) =>
      evidence.untrusted
        ? [
            {
              path: ['matches', m, 'evidence', e, 'snippet'],
              source: `lead ${match.leadId} ${evidence.source} ${evidence.sourceId}`,
            },
          ]
        : [],
    ),
  );

const REACH =
  'A member searches the leads assigned to them and those a collaborating agency shared with them; an ' +
  'admin the whole agency. Counts against the shared search limit (30 a minute per key and per ' +
  'organization, RATE_LIMITED past it).';

/** CRM search: by words, and by listing. */
export const SEARCH_TOOLS = [
  defineTool({
    name: 'search_crm',
    title: 'Search the CRM history',
    description:
      'Leads whose notes, call transcripts, call analyses, messages, emails or tasks match the words, best ' +
      'first, each with up to three passages as evidence (passages flagged `untrusted` were written by ' +
      'customers). Ignores case and accents, knows word forms, a multilingual real-estate thesaurus ' +
      `(flat = piso = appartamento) and small typos. ${REACH}`,
    route: 'POST /v1/search',
    input: z.object(searchInput),
    output: searchOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) => {
      await get(SharedToolLimit).take('search', principal);
      return get(SearchService).search(principal, await asDto(SearchDto, 'body', input));
    },
    untrusted: untrustedEvidence,
  }),
  defineTool({
    name: 'match_listing',
    title: 'Find the leads a listing suits',
    description:
      'The leads whose CRM history matches a listing (named by `propertyListingId`, or by `source` + ' +
      '`listingId` (+ `country` for a portal) exactly as property search gives it), best first, with ' +
      'evidence; the listing is said as English words (`listingQuery`) and searched like `search_crm`. ' +
      `${REACH} NOT_FOUND when the listing does not exist or is another agency’s and not on the network; ` +
      'a portal read counts toward the daily portal allowance (DAILY_LIMIT_REACHED).',
    route: 'POST /v1/listing-matches',
    input: z.object(listingMatchesInput),
    output: listingMatchesOutput,
    annotations: { readOnlyHint: true },
    run: async ({ principal, input, get }) => {
      await get(SharedToolLimit).take('search', principal);
      return get(ListingMatchesService).match(principal, await asDto(ListingMatchesDto, 'body', input));
    },
    untrusted: untrustedEvidence,
  }),
];
