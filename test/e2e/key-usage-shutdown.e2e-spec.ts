import { Client } from 'pg';
import { asKey, TestApp } from '../fixtures';

describe('key usage on shutdown', () => {
  it('is written when the API stops, not lost with the last batch', async () => {
    const t = await TestApp.start();
    await t.resetRows();
    const admin = await t.seed.organization();
    const key = await t.seed.apiKey(admin, { scopes: ['crm:read'] });
    await asKey(t.http.get('/v1/me'), key.key).set('User-Agent', 'shutdown-test').expect(200);
    await asKey(t.http.get('/v1/me'), key.key).expect(200);
    await t.stop(); // no explicit flush: the batch is still in memory here

    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query('select usage_count, last_used_at from api_keys where id = $1', [
        key.id,
      ]);
      expect(Number(rows[0].usage_count)).toBe(2);
      expect(rows[0].last_used_at).not.toBeNull();
    } finally {
      await client.end();
    }
  });
});
