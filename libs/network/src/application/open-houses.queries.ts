import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { ListingCards } from '@app/listings';
import { Clock, isUuid, notFound, preparedRows, Principal } from '@app/platform';
import {
  OpenHouseJson,
  OpenHouseRow,
  OpenHouseRowJson,
  toOpenHouseJson,
  toOpenHouseRowJson,
} from '../views/open-house.view';
import { OpenHouseListQuery, openHousePageStatement, openHouseRowsStatement } from './open-houses.sql';

export const openHouseNotFound = () => notFound('Open house');

/**
 * Open houses as `/v1` reads them (INTERFACES.md "Open houses"): an agency sees its own in any
 * visibility and other agencies' `network` ones, each with the listing as the viewer may read it
 * (`ListingCards`: never the private commission).
 */
@Injectable()
export class OpenHousesQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly cards: ListingCards,
    private readonly clock: Clock,
  ) {}

  async list(
    viewer: Principal,
    query: OpenHouseListQuery,
  ): Promise<{ data: OpenHouseRowJson[]; hasMore: boolean }> {
    const now = this.clock.now();
    const effective = { ...query, from: query.from ?? (query.scope === 'network' ? now : null) };
    // the text varies with the filters: pg's unnamed statement
    const page = await preparedRows<{ id: string }>(
      this.em,
      openHousePageStatement(viewer.organizationId, effective),
      { prepare: false },
    );
    const ids = page.slice(0, query.limit).map((row) => row.id);
    const rows = await this.visibleRows(viewer, ids);
    const data = rows.map(({ row, card }) => toOpenHouseRowJson(row, card, viewer.organizationId, now));
    return { data, hasMore: page.length > query.limit };
  }

  /** One open house the viewer sees, else 404 `Open house not found.`. */
  async get(viewer: Principal, id: string): Promise<OpenHouseJson> {
    const [found] = isUuid(id) ? await this.visibleRows(viewer, [id.toLowerCase()]) : [];
    if (!found) throw openHouseNotFound();
    return toOpenHouseJson(found.row, found.card, viewer.organizationId, this.clock.now());
  }

  /** The rows among `ids` in that order, those the viewer sees with a listing it may read. */
  private async visibleRows(viewer: Principal, ids: string[]) {
    if (ids.length === 0) return [];
    const rows = await preparedRows<OpenHouseRow>(
      this.em,
      openHouseRowsStatement(viewer.organizationId, viewer.userId, ids),
    );
    const cards = await this.cards.readable(
      viewer.organizationId,
      rows.map((row) => row.property_listing_id),
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      const card = row && cards.get(row.property_listing_id);
      return row && card ? [{ row, card }] : [];
    });
  }
}
