import { eventActorOf, ManualClock, type ApiKeyPrincipal } from '@app/platform';
import { KeyDoor } from '@app/identity';
import type { McpKeyFacts, McpKeyRepository } from '../domain/mcp-key.repository';
import { DbMcpKeyAuthenticator } from './mcp-key-authenticator';

const SECRET = `svc_mcp_${'A1'.repeat(16)}`;

const facts = (overrides: Partial<McpKeyFacts> = {}): McpKeyFacts => ({
  id: 'key-1',
  organizationId: 'org-1',
  name: 'Claude',
  prefixHint: SECRET.slice(0, 12),
  scopes: ['crm:read'],
  ownerId: 'user-1',
  expiresAt: null,
  revokedAt: null,
  ownerRole: 'member',
  planActive: true,
  organizationDisabled: false,
  ...overrides,
});

function door(row: McpKeyFacts | null) {
  const clock = new ManualClock(new Date('2026-11-24T10:00:00Z'));
  const reads: string[] = [];
  const repository = {
    doorFactsBySecretHash: async (hash: string) => {
      reads.push(hash);
      return row && { ...row };
    },
    touch: async () => undefined,
  } as unknown as McpKeyRepository;
  // one process, no Redis: every change is heard
  const channel = { listening: true, listen: () => undefined, publish: async () => undefined };
  const keyDoor = new KeyDoor(channel as unknown as ConstructorParameters<typeof KeyDoor>[0], clock);
  return { clock, reads, keyDoor, door: new DbMcpKeyAuthenticator(keyDoor, repository, clock) };
}

describe('the MCP key door', () => {
  it("acts as the key's person with their role, the key's scopes and via 'mcp' (events: mcp_key)", async () => {
    const { door: d } = door(facts());
    const principal = await d.authenticate(SECRET);
    expect(principal).toMatchObject<Partial<ApiKeyPrincipal>>({
      kind: 'apiKey',
      via: 'mcp',
      keyId: 'key-1',
      userId: 'user-1',
      organizationId: 'org-1',
      role: 'member',
      scopes: ['crm:read'],
      planActive: true,
    });
    expect(eventActorOf(principal)).toEqual({ type: 'mcp_key', id: 'key-1', userId: 'user-1' });
  });

  it.each([
    ['malformed', `svc_mcp_short`, facts(), 'UNAUTHENTICATED'],
    ['unknown', SECRET, null, 'UNAUTHENTICATED'],
    ['revoked', SECRET, facts({ revokedAt: new Date('2026-11-01T00:00:00Z') }), 'UNAUTHENTICATED'],
    ['expired', SECRET, facts({ expiresAt: new Date('2026-11-24T09:59:59Z') }), 'UNAUTHENTICATED'],
    ['owner gone', SECRET, facts({ ownerRole: null }), 'API_KEY_OWNER_NOT_IN_ORGANIZATION'],
    ['agency disabled', SECRET, facts({ organizationDisabled: true }), 'ORG_DISABLED'],
  ])('refuses a key %s', async (_case, secret, row, code) => {
    await expect(door(row).door.authenticate(secret)).rejects.toMatchObject({ code });
  });

  it("drops a cached key the moment its owner's role changes (identity tells the door)", async () => {
    const row = facts({ ownerRole: 'admin' });
    const { door: d, keyDoor, reads } = door(row);
    expect((await d.authenticate(SECRET)).role).toBe('admin');
    row.ownerRole = 'member';
    expect((await d.authenticate(SECRET)).role).toBe('admin'); // cached, nothing told yet
    await keyDoor.ownerChanged('user-1');
    expect((await d.authenticate(SECRET)).role).toBe('member');
    expect(reads).toHaveLength(2);
  });

  it('reads the owner again after 5 seconds (the cache), so a role change or departure shows within seconds', async () => {
    const { door: d, clock, reads } = door(facts());
    await d.authenticate(SECRET);
    clock.advance(4_000);
    await d.authenticate(SECRET);
    expect(reads).toHaveLength(1);
    clock.advance(1_001);
    await d.authenticate(SECRET);
    expect(reads).toHaveLength(2);
  });
});
