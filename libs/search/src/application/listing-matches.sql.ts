import type { Statement } from '@app/platform/core';

/**
 * The boosts of `POST /v1/listing-matches` (issue 18 item 4), pure like search.sql.ts. Applied
 * to the leads search found, after its rerank, as a factor on their score.
 */

/** A lead whose inquiries named this listing, or its city. */
export const NAMED_LISTING_BOOST = 1.5;
/** A buyer for a listing for sale, a tenant for one for rent. */
export const LEAD_TYPE_BOOST = 1.2;

/** What the boosts compare, from the resolved listing. */
export interface ListingBoostFacts {
  /** The reference's source (`internal`, a feed, a portal). */
  source: string;
  /** The ids an inquiry may name it by, lower case (its id within the source, its reference). */
  ids: string[];
  /** The portal country; null for internal and feed listings. */
  country: string | null;
  city: string | null;
  /** `buyer` for a sale, `tenant` for a rent; null when the operation is unknown. */
  leadType: string | null;
}

/** The factors' row per lead. */
export interface LeadBoostRow {
  lead_id: string;
  named: boolean;
  typed: boolean;
}

/**
 * One statement over the candidate leads (own agency, the caller's reach `own` on `l`): whether
 * an inquiry of theirs named this listing (`lead_inquiries.listing` = `{source, id, country?}`)
 * or wrote its city (a phrase under `app_simple`: case and accents ignored, whole words), and
 * whether their lead type fits the operation. Leads shared from another agency are not here: their
 * inquiries are that agency's.
 */
export function leadBoostStatement(
  organizationId: string,
  own: Statement,
  leadIds: number[],
  listing: ListingBoostFacts,
): Statement {
  const country = listing.country === null ? '' : `and coalesce(i.listing->>'country', ?) = ?`;
  const city =
    listing.city === null
      ? ''
      : `or (i.message is not null
              and to_tsvector('app_simple'::regconfig, i.message) @@ phraseto_tsquery('app_simple'::regconfig, ?))`;
  return {
    sql: `select l.id as lead_id,
                 exists (select 1 from lead_inquiries i
                          where i.organization_id = l.organization_id and i.lead_id = l.id
                            and ((i.listing->>'source' = ? and lower(i.listing->>'id') = any(?::text[]) ${country})
                                 ${city})) as named,
                 coalesce(l.lead_type = ?, false) as typed
            from leads l
           where l.organization_id = ? and l.id = any(?::bigint[]) and ${own.sql}`,
    params: [
      listing.source,
      listing.ids,
      ...(listing.country === null ? [] : [listing.country, listing.country]),
      ...(listing.city === null ? [] : [listing.city]),
      listing.leadType,
      organizationId,
      leadIds,
      ...own.params,
    ],
  };
}

/** A lead's factor: the boosts it earns, multiplied. */
export const boostOf = (row: LeadBoostRow): number =>
  (row.named ? NAMED_LISTING_BOOST : 1) * (row.typed ? LEAD_TYPE_BOOST : 1);
