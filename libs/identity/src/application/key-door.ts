import { Injectable, Optional } from '@nestjs/common';
import { Clock, Metrics, sha256, type Role } from '@app/platform';
import { DoorFacts, KeyNoun, keyRefused, stoppedAt } from '../domain/key-door.rules';
import { KeyChangeChannel } from './key-change-channel';
import { KeyChange, KeyDoorCache } from './key-door-cache';

interface KindBase<F extends DoorFacts, C> {
  /** Names the key in every 401 ("Unknown MCP key."). */
  noun: KeyNoun;
  /** The secret's shape; anything else is refused before a lookup. */
  pattern: RegExp;
  /** The kind's one read by the secret's hash, any agency; null when unknown. */
  read(secretHash: string): Promise<F | null>;
  /** The kind's own refusals after the key's life and owner, before the owner's standing. */
  gate?(facts: F, context: C): void;
  /** Bookkeeping once admitted (usage counts); never awaited by the door. */
  used?(facts: F, context: C, now: Date): void;
}

/** How a key that acts as a person stands once the door lets it through. */
export interface KeyHolder {
  userId: string;
  /** The owner's current role; `admin` for an agency key. */
  role: Role;
  /** The owner left, and the kind lets this key go on as the agency's (older API keys on the listing families). */
  agencyKey: boolean;
}

/** A key that acts as its person, with the person's current role (API keys, MCP keys). */
export interface PersonKeyKind<F extends DoorFacts, C, P> extends KindBase<F, C> {
  actsAs: 'person';
  /** True when a key whose owner is gone goes on as an agency key; otherwise it is refused. */
  goesOnWithoutOwner?(facts: F, context: C): boolean;
  /** The principal; may still refuse (rules that come last, such as Origin). */
  admit(facts: F, context: C, holder: KeyHolder): P;
}

/** A key of the organization, with no person (integration keys). */
export interface OrganizationKeyKind<F extends DoorFacts, C, P> extends KindBase<F, C> {
  actsAs: 'organization';
  admit(facts: F, context: C): P;
}

/**
 * A kind of key the door opens. Contexts that keep their keys' table (MCP) plug their kind in by
 * passing it to `KeyDoor.open`: the door holds the cache, the changes and every refusal.
 */
export type KeyKind<F extends DoorFacts, C, P> = PersonKeyKind<F, C, P> | OrganizationKeyKind<F, C, P>;

/**
 * The one door for every kind of key (docs/security/key-door.md): the secret's shape, the key by
 * its hash through one cache, then in this order its life (revoked, expired, rotated past its
 * grace), its owner, the kind's own rules, the owner's standing, the organization, the principal.
 * A change (revoke, narrow, rotation, role, membership, plan, organization) is told to this
 * process and every other one before its request answers, for every kind of key alike.
 */
@Injectable()
export class KeyDoor {
  private readonly cache = new KeyDoorCache();

  constructor(
    private readonly channel: KeyChangeChannel,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {
    channel.listen({ change: (change) => this.cache.apply(change), reset: () => this.cache.clear() });
  }

  async open<F extends DoorFacts, C, P>(kind: KeyKind<F, C, P>, secret: string, context: C): Promise<P> {
    if (!kind.pattern.test(secret)) throw keyRefused.malformed(kind.noun);
    const facts = await this.lookup(kind, sha256(secret));
    if (!facts) throw keyRefused.unknown(kind.noun);
    const now = this.clock.now();
    const stopped = stoppedAt(facts, now);
    if (stopped) throw keyRefused[stopped](kind.noun);
    const principal =
      kind.actsAs === 'person'
        ? this.asPerson(kind, facts, context)
        : this.asOrganization(kind, facts, context);
    kind.used?.(facts, context, now);
    return principal;
  }

  /** A key's secret, scopes, limits or life changed (revoke, narrow, rotation). */
  keyChanged(keyId: string): Promise<void> {
    return this.changed({ kind: 'key', id: keyId });
  }

  /** A person's role or membership changed: every key acting as them. */
  ownerChanged(userId: string): Promise<void> {
    return this.changed({ kind: 'owner', id: userId });
  }

  /** An agency's plan, state or limits changed: every key of it, of every kind. */
  organizationChanged(organizationId: string): Promise<void> {
    return this.changed({ kind: 'organization', id: organizationId });
  }

  private async changed(change: KeyChange): Promise<void> {
    this.cache.apply(change);
    await this.channel.publish(change);
  }

  private asPerson<F extends DoorFacts, C, P>(kind: PersonKeyKind<F, C, P>, facts: F, context: C): P {
    if (!facts.ownerId) throw keyRefused.noOwner(kind.noun);
    kind.gate?.(facts, context);
    const ownerRole = facts.ownerRole ?? null;
    if (!ownerRole && !kind.goesOnWithoutOwner?.(facts, context)) throw keyRefused.ownerGone();
    if (facts.organizationDisabled) throw keyRefused.organizationDisabled();
    return kind.admit(facts, context, {
      userId: facts.ownerId,
      role: ownerRole ?? 'admin',
      agencyKey: !ownerRole,
    });
  }

  private asOrganization<F extends DoorFacts, C, P>(
    kind: OrganizationKeyKind<F, C, P>,
    facts: F,
    context: C,
  ): P {
    kind.gate?.(facts, context);
    if (facts.organizationDisabled) throw keyRefused.organizationDisabled();
    return kind.admit(facts, context);
  }

  /**
   * Through the cache while this process hears every change; a database that does not answer is
   * 503 AUTH_UNAVAILABLE, never a 500.
   */
  private async lookup<F extends DoorFacts, C, P>(
    kind: KeyKind<F, C, P>,
    secretHash: string,
  ): Promise<F | null> {
    if (this.channel.listening) {
      const cached = this.cache.get(kind, secretHash, this.clock.now().getTime()) as F | undefined;
      this.metrics?.keyCacheLookups.inc({ result: cached ? 'hit' : 'miss' });
      if (cached) return cached;
    }
    const since = this.cache.generation;
    let facts: F | null;
    try {
      facts = await kind.read(secretHash);
    } catch {
      throw keyRefused.unavailable(kind.actsAs);
    }
    if (facts && this.channel.listening)
      this.cache.set(kind, secretHash, facts, since, this.clock.now().getTime());
    return facts;
  }
}
