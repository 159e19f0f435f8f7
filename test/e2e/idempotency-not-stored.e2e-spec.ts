import { Body, Controller, Post } from '@nestjs/common';
import { Idempotent, IdempotencyStore, RequireScopes } from '@app/platform';
import { TestApp } from '../fixtures';

let created = 0;

/** Creating routes whose answers must not be kept (spec idempotency rule 6). */
@Controller('v1/probe-idem')
class IdempotencyProbeController {
  @Post('secret')
  @RequireScopes()
  @Idempotent({ storeResponse: false })
  secret(@Body() _body: { name?: string }) {
    created += 1;
    return { id: created, secret: `svc_pk_${'x'.repeat(32)}` };
  }

  @Post('large')
  @RequireScopes()
  @Idempotent()
  large(@Body() _body: { name?: string }) {
    created += 1;
    return { id: created, blob: 'y'.repeat(600 * 1024) };
  }

  @Post('small')
  @RequireScopes()
  @Idempotent()
  small(@Body() _body: { name?: string }) {
    created += 1;
    return { id: created };
  }
}

describe('idempotency rule 6: answers that are not stored', () => {
  let probe: TestApp;
  let key: string;
  beforeAll(async () => {
    probe = await TestApp.start({ controllers: [IdempotencyProbeController] });
    const admin = await probe.seed.organization({
      name: 'Probe Agency',
      firstName: 'Pia',
      lastName: 'Probe',
    });
    key = (await probe.seed.apiKey(admin, { name: 'k' })).key;
  });
  afterAll(() => probe.stop());

  const send = (route: string, idempotencyKey: string) =>
    probe.http
      .post(`/v1/probe-idem/${route}`)
      .auth(key, { type: 'bearer' })
      .set('Idempotency-Key', idempotencyKey)
      .send({ name: 'same' });

  it('runs again when the answer carries a secret, and never replays it', async () => {
    const first = await send('secret', 'secret-1').expect(201);
    const again = await send('secret', 'secret-1').expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.id).toBe(first.body.id + 1);
  });

  it('runs again when the answer is larger than 512 KB', async () => {
    const first = await send('large', 'large-1').expect(201);
    const again = await send('large', 'large-1').expect(201);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.id).toBe(first.body.id + 1);
  });

  it('replays a small answer (the control case)', async () => {
    const first = await send('small', 'small-1').expect(201);
    const again = await send('small', 'small-1').expect(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('runs unprotected when the idempotency store does not answer (rule 7)', async () => {
    const store = probe.app.get(IdempotencyStore);
    const claim = jest.spyOn(store, 'claim').mockRejectedValue(new Error('connection refused'));
    try {
      const first = await send('small', 'down-1').expect(201);
      const again = await send('small', 'down-1').expect(201);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body.id).toBe(first.body.id + 1);
    } finally {
      claim.mockRestore();
    }
  });
});
