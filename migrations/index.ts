import { Migration20261122000000_identity } from './Migration20261122000000_identity';
import { Migration20261122010000_api_keys } from './Migration20261122010000_api_keys';

/** Every migration, in order. Never edit one that has landed; add a new one. */
export const MIGRATIONS = [Migration20261122000000_identity, Migration20261122010000_api_keys].map(
  (migration) => ({
    name: migration.name,
    class: migration,
  }),
);
