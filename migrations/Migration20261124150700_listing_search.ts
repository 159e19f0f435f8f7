import { Migration } from '@mikro-orm/migrations';

/**
 * Property search (issue 16): the per-agency price index covers the columns the common filters
 * read (bedrooms, type, operation, status, currency, living area in m²), so a count or a search's
 * exact total over a price range, or over the whole agency, is an index-only scan instead of
 * reading every wide row (images inline) of the agency. Same name, same key, same order as before.
 */
export class Migration20261124150700_listing_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      drop index listings_org_price_idx;
      create index listings_org_price_idx on listings (organization_id, source, price, id)
        include (bedrooms, property_type, operation, status, currency, living_area_sqm)
        where deleted_at is null;
    `);
  }
}
