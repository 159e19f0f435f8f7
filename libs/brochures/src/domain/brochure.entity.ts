import { randomBytes } from 'node:crypto';
import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { BrochureRepository } from './brochure.repository';

/** Stored status; `expired` is read from `expiresAt` (spec: Brochure state table). */
export type StoredBrochureStatus = 'active' | 'revoked';
export type BrochureStatus = StoredBrochureStatus | 'expired';

/** Spec Limits for brochures. */
export const BROCHURE_LIMITS = {
  listings: 25,
  title: 255,
  recipientName: 255,
  recipientNote: 4096,
  expiresInDaysMin: 1,
  expiresInDaysMax: 365,
  defaultExpiresInDays: 30,
  slugTitle: 40,
  listLimit: 20,
} as const;

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * The slug of a brochure: the title slugified (accents dropped, lower case, runs of anything but
 * letters and digits as one `-`, at most 40 characters) + `-` + 10 random base32 characters.
 */
export function brochureSlug(title: string, random: (n: number) => Buffer = randomBytes): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, BROCHURE_LIMITS.slugTitle)
    .replace(/-+$/, '');
  const bytes = random(10);
  const suffix = Array.from(bytes, (byte) => BASE32[byte & 31]).join('');
  return `${base || 'brochure'}-${suffix}`;
}

/** What `PATCH /v1/brochures/{id}` may change (null clears a nullable field). */
export interface BrochureChange {
  title?: string;
  recipientName?: string | null;
  recipientNote?: string | null;
  themeName?: string;
  accentColorOverride?: string | null;
  showLocations?: boolean;
}

/**
 * A brochure (spec "Brochure"): a shareable public page of 1-25 listing copies, sent to a
 * recipient. Revoke and renew work from any status; `expired` shows as soon as `expiresAt` passes.
 */
@Entity({ tableName: 'brochures', repository: () => BrochureRepository })
export class Brochure {
  [EntityRepositoryType]?: BrochureRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  slug: string;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text', nullable: true })
  recipientName: string | null = null;

  @Property({ type: 'text', nullable: true })
  recipientNote: string | null = null;

  @Property({ type: 'text' })
  status: StoredBrochureStatus = 'active';

  @Property({ type: 'boolean' })
  showLocations: boolean = true;

  @Property({ type: 'text' })
  themeName: string = 'classic';

  @Property({ type: 'text', nullable: true })
  accentColorOverride: string | null = null;

  @Property({ type: 'uuid' })
  agentUserId: string;

  @Property({ type: 'uuid' })
  creatorUserId: string;

  @Property({ type: 'bigint[]' })
  leadIds: number[] = [];

  @Property({ type: 'integer' })
  expiresInDays: number;

  @Property({ type: 'datetime' })
  expiresAt: Date;

  /** When the expiry job recorded the expiry (reads do not need it). */
  @Property({ type: 'datetime', nullable: true })
  expiredAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  @Property({ type: 'integer' })
  viewCount: number = 0;

  @Property({ type: 'datetime', nullable: true })
  lastViewedAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(
    props: {
      organizationId: string;
      slug: string;
      title: string;
      agentUserId: string;
      creatorUserId: string;
      expiresInDays: number;
    },
    now: Date,
  ) {
    this.organizationId = props.organizationId;
    this.slug = props.slug;
    this.title = props.title;
    this.agentUserId = props.agentUserId;
    this.creatorUserId = props.creatorUserId;
    this.expiresInDays = props.expiresInDays;
    this.expiresAt = new Date(now.getTime() + props.expiresInDays * 86_400_000);
    this.createdAt = now;
    this.updatedAt = now;
  }

  /** The fields of a change that were sent; `updatedAt` follows. */
  change(change: BrochureChange, now: Date): void {
    if (change.title !== undefined) this.title = change.title;
    if (change.recipientName !== undefined) this.recipientName = change.recipientName;
    if (change.recipientNote !== undefined) this.recipientNote = change.recipientNote;
    if (change.themeName !== undefined) this.themeName = change.themeName;
    if (change.accentColorOverride !== undefined) this.accentColorOverride = change.accentColorOverride;
    if (change.showLocations !== undefined) this.showLocations = change.showLocations;
    this.updatedAt = now;
  }

  /** From any status: the public page answers 410 from now on (a second revoke keeps the first time). */
  revoke(now: Date): void {
    if (this.status !== 'revoked') this.revokedAt = now;
    this.status = 'revoked';
    this.updatedAt = now;
  }

  /** From any status: `active` again, the same slug, `expiresAt` = now + `expiresInDays`. */
  renew(expiresInDays: number, now: Date): void {
    this.status = 'active';
    this.revokedAt = null;
    this.expiredAt = null;
    this.expiresInDays = expiresInDays;
    this.expiresAt = new Date(now.getTime() + expiresInDays * 86_400_000);
    this.updatedAt = now;
  }

  /** A change to its listings (added, edited, refreshed, moved, removed). */
  touch(now: Date): void {
    this.updatedAt = now;
  }

  /** The status a read shows: `expired` as soon as `expiresAt` passes. */
  statusAt(now: Date): BrochureStatus {
    if (this.status === 'revoked') return 'revoked';
    return this.expiresAt <= now ? 'expired' : 'active';
  }
}
