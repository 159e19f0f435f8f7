import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { ormOptions, startEmbeddedPostgres } from '@app/platform';

/** The machine's PostgreSQL (CI and developer machines have one); embedded where none answers. */
const SERVER_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function serverAnswers(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A fresh, migrated database for one test run; its URL goes to DATABASE_URL. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  let serverUrl = SERVER_URL;
  let stopServer = async () => undefined as void;
  if (!(await serverAnswers(serverUrl))) {
    const embedded = await startEmbeddedPostgres('.data/test-postgres', 54339);
    serverUrl = embedded.url;
    stopServer = embedded.stop;
  }
  const name = `estate_test_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const orm = await MikroORM.init({
    ...ormOptions(url.toString()),
    entities: [],
    discovery: { warnWhenNoEntities: false },
  });
  await orm.getMigrator().up();
  await orm.close();
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
      await stopServer();
    },
  };
}
