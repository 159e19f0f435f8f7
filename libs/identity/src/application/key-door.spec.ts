import { ManualClock, sha256, type CallContext } from '@app/platform';
import type { ApiKeyRepository, KeyFacts } from '../domain/api-key.repository';
import { DbApiKeyAuthenticator } from './api-key-authenticator';
import type { KeyChangeChannel, KeyChangeListener } from './key-change-channel';
import type { KeyChange } from './key-door-cache';
import { KeyDoor } from './key-door';
import type { KeyUsageRecorder } from './key-usage.recorder';

const SECRET = `svc_pk_${'A1'.repeat(16)}`;
const NOW = new Date('2026-11-24T10:00:00Z');
const V1: CallContext = { family: 'v1', origin: undefined, ip: undefined, userAgent: undefined };

const facts = (overrides: Partial<KeyFacts> = {}): KeyFacts => ({
  id: 'key-1',
  organizationId: 'org-1',
  name: 'CRM sync',
  prefixHint: SECRET.slice(0, 12),
  legacy: false,
  system: false,
  scopes: ['crm:read'],
  allowedOrigins: [],
  rateLimitPerMinute: null,
  ownerId: 'user-1',
  lineageCreatedAt: new Date('2026-11-01T00:00:00Z'),
  expiresAt: null,
  revokedAt: null,
  rotatedToId: null,
  graceUntil: null,
  ownerRole: 'admin',
  planActive: true,
  organizationDisabled: false,
  searchRatePerMinute: null,
  ...overrides,
});

/** The Redis channel as the door sees it: whether it hears every process, and what it was told. */
class FakeChannel {
  listening = true;
  listener?: KeyChangeListener;
  published: KeyChange[] = [];
  listen(listener: KeyChangeListener) {
    this.listener = listener;
  }
  async publish(change: KeyChange) {
    this.published.push(change);
  }
}

/** The API-key door over a row the test changes; each read hands out a copy, and is counted. */
function door(initial: KeyFacts) {
  const clock = new ManualClock(NOW);
  const channel = new FakeChannel();
  const state = { row: initial, reads: 0, hold: null as Promise<void> | null };
  const keys = {
    doorFactsBySecretHash: async (hash: string) => {
      expect(hash).toBe(sha256(SECRET));
      state.reads += 1;
      const answer = { ...state.row };
      if (state.hold) await state.hold;
      return answer;
    },
  } as unknown as ApiKeyRepository;
  const usage = { record: () => undefined } as unknown as KeyUsageRecorder;
  const keyDoor = new KeyDoor(channel as unknown as KeyChangeChannel, clock);
  const apiKeys = new DbApiKeyAuthenticator(keyDoor, keys, usage);
  return { clock, channel, state, keyDoor, open: () => apiKeys.authenticate(SECRET, V1) };
}

describe('the key door', () => {
  it('keeps a key it read, and tells every process of a change before the change answers', async () => {
    const d = door(facts());
    await d.open();
    await d.open();
    expect(d.state.reads).toBe(1);
    await d.keyDoor.ownerChanged('user-1');
    expect(d.channel.published).toEqual([{ kind: 'owner', id: 'user-1' }]);
    await d.open();
    expect(d.state.reads).toBe(2);
  });

  it('does not keep the answer of a read that began before a change (a demotion racing a lookup)', async () => {
    const d = door(facts());
    let release!: () => void;
    d.state.hold = new Promise((resolve) => (release = resolve));
    const racing = d.open(); // reads the admin row...
    await new Promise((resolve) => setImmediate(resolve));
    d.state.row = facts({ ownerRole: 'member' });
    await d.keyDoor.ownerChanged('user-1'); // ...the demotion commits and is told meanwhile
    release();
    d.state.hold = null;
    expect((await racing).role).toBe('admin');
    expect((await d.open()).role).toBe('member');
    expect(d.state.reads).toBe(2);
  });

  it('keeps nothing while it cannot hear the other processes, and forgets what it held once it hears again', async () => {
    const d = door(facts());
    await d.open();
    d.channel.listening = false; // Redis gone: a revoke elsewhere would not be heard
    d.state.row = facts({ revokedAt: NOW });
    await expect(d.open()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(d.state.reads).toBe(2);
    d.state.row = facts();
    await d.open();
    await d.open();
    expect(d.state.reads).toBe(4);
    d.channel.listener?.reset(); // subscribed again: changes may have been missed
    d.channel.listening = true;
    await d.open();
    await d.open();
    expect(d.state.reads).toBe(5);
  });

  it("judges a kept key's grace end and expiry at every call: refused the moment they pass, no re-read", async () => {
    const soon = new Date(NOW.getTime() + 1_000);
    const rotated = door(facts({ rotatedToId: 'key-2', graceUntil: soon }));
    await rotated.open();
    rotated.clock.advance(1_000);
    await expect(rotated.open()).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'This API key was rotated and its grace period is over.',
    });
    const expiring = door(facts({ expiresAt: soon }));
    await expiring.open();
    expiring.clock.advance(1_000);
    await expect(expiring.open()).rejects.toMatchObject({ message: 'This API key has expired.' });
    expect([rotated.state.reads, expiring.state.reads]).toEqual([1, 1]);
  });

  it('answers 503 AUTH_UNAVAILABLE when the read fails, and keeps nothing', async () => {
    const d = door(facts());
    d.state.hold = Promise.reject(new Error('connection refused'));
    d.state.hold.catch(() => undefined);
    await expect(d.open()).rejects.toMatchObject({ code: 'AUTH_UNAVAILABLE' });
    d.state.hold = null;
    await d.open();
    expect(d.state.reads).toBe(2);
  });
});
