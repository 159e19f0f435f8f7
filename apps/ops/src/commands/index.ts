import { factsRebuildCommand } from './facts-rebuild.command';
import { keyRateCommand } from './key-rate.command';
import { mediaCleanCommand } from './media-clean.command';
import { migrateCommand } from './migrate.command';
import { OpsCommand } from './ops-command';
import { orgCommand } from './org.command';
import { planCommand } from './plan.command';
import { searchRateCommand } from './search-rate.command';
import { searchRecentIndexesCommand } from './search-recent-indexes.command';
import { searchReindexCommand } from './search-reindex.command';
import { seedDemoCommand } from './seed-demo.command';

export * from './ops-command';

/** Every operator command; a new one is a file in this folder plus a line here. */
export const OPS_COMMANDS: OpsCommand[] = [
  migrateCommand,
  planCommand,
  orgCommand,
  keyRateCommand,
  seedDemoCommand,
  factsRebuildCommand,
  searchReindexCommand,
  searchRateCommand,
  searchRecentIndexesCommand,
  mediaCleanCommand,
];
