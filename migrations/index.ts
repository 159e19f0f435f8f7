import { Migration20261122000000_identity } from './Migration20261122000000_identity';
import { Migration20261122010000_api_keys } from './Migration20261122010000_api_keys';
import { Migration20261122020000_crm_core } from './Migration20261122020000_crm_core';
import { Migration20261122030000_lead_counters } from './Migration20261122030000_lead_counters';
import { Migration20261124000000_sync } from './Migration20261124000000_sync';
import { Migration20261124010000_idempotency_attempts } from './Migration20261124010000_idempotency_attempts';
import { Migration20261124030000_calendar } from './Migration20261124030000_calendar';
import { Migration20261124040000_deals } from './Migration20261124040000_deals';
import { Migration20261124050000_integration_keys } from './Migration20261124050000_integration_keys';
import { Migration20261124060000_lead_intake } from './Migration20261124060000_lead_intake';
import { Migration20261124070000_ingest_records } from './Migration20261124070000_ingest_records';
import { Migration20261124080000_viewings } from './Migration20261124080000_viewings';
import { Migration20261124090000_queues } from './Migration20261124090000_queues';
import { Migration20261124100000_lead_work_facts } from './Migration20261124100000_lead_work_facts';
import { Migration20261124110000_offers } from './Migration20261124110000_offers';
import { Migration20261124120000_lead_routing } from './Migration20261124120000_lead_routing';
import { Migration20261124130000_documents } from './Migration20261124130000_documents';
import { Migration20261124140000_listings } from './Migration20261124140000_listings';
import { Migration20261124150700_listing_search } from './Migration20261124150700_listing_search';
import { Migration20261124160000_brochures_network } from './Migration20261124160000_brochures_network';
import { Migration20261124170000_search } from './Migration20261124170000_search';
import { Migration20261124175000_search_plans } from './Migration20261124175000_search_plans';
import { Migration20261124180000_events } from './Migration20261124180000_events';
import { Migration20261124180100_webhooks } from './Migration20261124180100_webhooks';
import { Migration20261124180200_mcp_keys } from './Migration20261124180200_mcp_keys';
import { Migration20261125080000_search_recent_indexes } from './Migration20261125080000_search_recent_indexes';
import { Migration20261125090000_search_chunk_inline } from './Migration20261125090000_search_chunk_inline';
import { Migration20261125100000_search_floor_sample } from './Migration20261125100000_search_floor_sample';
import { Migration20261126020000_media_files } from './Migration20261126020000_media_files';
import { Migration20261126060000_publication_simulated } from './Migration20261126060000_publication_simulated';
import { Migration20261126070000_media_uncleaned } from './Migration20261126070000_media_uncleaned';
import { Migration20261208010000_lead_counter_deltas } from './Migration20261208010000_lead_counter_deltas';

/** Every migration, in order. Never edit one that has landed; add a new one. */
export const MIGRATIONS = [
  Migration20261122000000_identity,
  Migration20261122010000_api_keys,
  Migration20261122020000_crm_core,
  Migration20261122030000_lead_counters,
  Migration20261124000000_sync,
  Migration20261124010000_idempotency_attempts,
  Migration20261124030000_calendar,
  Migration20261124040000_deals,
  Migration20261124050000_integration_keys,
  Migration20261124060000_lead_intake,
  Migration20261124070000_ingest_records,
  Migration20261124080000_viewings,
  Migration20261124090000_queues,
  Migration20261124100000_lead_work_facts,
  Migration20261124110000_offers,
  Migration20261124120000_lead_routing,
  Migration20261124130000_documents,
  Migration20261124140000_listings,
  Migration20261124150700_listing_search,
  Migration20261124160000_brochures_network,
  Migration20261124170000_search,
  Migration20261124175000_search_plans,
  Migration20261124180000_events,
  Migration20261124180100_webhooks,
  Migration20261124180200_mcp_keys,
  Migration20261125080000_search_recent_indexes,
  Migration20261125090000_search_chunk_inline,
  Migration20261125100000_search_floor_sample,
  Migration20261126020000_media_files,
  Migration20261126060000_publication_simulated,
  Migration20261126070000_media_uncleaned,
  Migration20261208010000_lead_counter_deltas,
].map((migration) => ({
  name: migration.name,
  class: migration,
}));
