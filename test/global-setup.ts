import { createTestDatabase } from './database';

/** One migrated database for the whole run (tests run in band); rows are reset between tests. */
export default async function globalSetup(): Promise<void> {
  const db = await createTestDatabase();
  process.env.DATABASE_URL = db.url;
  (globalThis as { __dropTestDatabase?: () => Promise<void> }).__dropTestDatabase = db.drop;
}
