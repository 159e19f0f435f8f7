import type { DoorFacts } from '../domain/key-door.rules';

/** What changed, as every process hears it: a key, everything of a person, or of an agency. */
export interface KeyChange {
  kind: 'key' | 'owner' | 'organization';
  id: string;
}

export const KEY_DOOR_CACHE_TTL_MS = 5_000; // a backstop: every change that matters is told at once
const MAX_ENTRIES = 10_000;

interface Entry {
  /** The kind that read it: a hash is only ever answered for the kind it was read for. */
  kind: object;
  facts: DoorFacts;
  at: number;
}

const concerns = (facts: DoorFacts, { kind, id }: KeyChange): boolean =>
  kind === 'key' ? facts.id === id : kind === 'owner' ? facts.ownerId === id : facts.organizationId === id;

/**
 * The door's one cache, for every kind of key, by the secret's hash. A change drops the entries
 * it concerns; a read that began before a change is not kept, so a lookup racing a revoke or a
 * demotion cannot put the old facts back (every change bumps the generation).
 */
export class KeyDoorCache {
  private readonly entries = new Map<string, Entry>();
  private changes = 0;

  constructor(private readonly ttlMs = KEY_DOOR_CACHE_TTL_MS) {}

  /** The generation a read starts in; `set` keeps the read's answer only if it is still current. */
  get generation(): number {
    return this.changes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(kind: object, secretHash: string, nowMs: number): DoorFacts | undefined {
    const entry = this.entries.get(secretHash);
    if (!entry || entry.kind !== kind) return undefined;
    const age = nowMs - entry.at;
    // a clock set back counts as stale too
    if (age < 0 || age > this.ttlMs) {
      this.entries.delete(secretHash);
      return undefined;
    }
    return entry.facts;
  }

  set(kind: object, secretHash: string, facts: DoorFacts, readSince: number, nowMs: number): void {
    if (readSince !== this.changes) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(secretHash, { kind, facts, at: nowMs });
  }

  apply(change: KeyChange): void {
    this.changes += 1;
    for (const [hash, entry] of this.entries) if (concerns(entry.facts, change)) this.entries.delete(hash);
  }

  clear(): void {
    this.changes += 1;
    this.entries.clear();
  }
}
