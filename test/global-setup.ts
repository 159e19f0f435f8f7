import { createTestDatabase } from './database';

/** One migrated database for the whole run (one test file at a time); rows are reset between tests. */
export default async function globalSetup(): Promise<void> {
  const db = await createTestDatabase();
  process.env.DATABASE_URL = db.url;
  (globalThis as { __dropTestDatabase?: () => Promise<void> }).__dropTestDatabase = db.drop;
  // MikroORM.init (migrating above) leaves its metadata cache on globalThis; Jest copies globals
  // into every test file, where one shared cache breaks entity discovery from the second file on.
  for (const key of Object.keys(globalThis)) {
    if (key.startsWith('mikro-orm-')) delete (globalThis as Record<string, unknown>)[key];
  }
}
