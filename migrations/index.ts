import { Migration20261122000000_identity } from './Migration20261122000000_identity';

/** Every migration, in order. Never edit one that has landed; add a new one. */
export const MIGRATIONS = [Migration20261122000000_identity].map((migration) => ({
  name: migration.name,
  class: migration,
}));
