import { ArrayType, Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { DomainError } from '@app/platform/core';
import type { DocumentVisibility } from './document-access';
import { DocumentRepository } from './document.repository';

export const DOCUMENT_KINDS = ['markdown', 'whiteboard', 'pdf', 'file'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Spec Limits: title 1-200; body up to 1,000,000 characters (Unicode code points, empty allowed). */
export const DOCUMENT_LIMITS = { title: 200, bodyCodePoints: 1_000_000 } as const;

/** An uploaded file's metadata (the bytes live behind `BlobStorage`, never returned). */
export interface DocumentFile {
  fileName: string;
  mimeType: string;
  blobKey: string;
}

/** A whiteboard element (the scene is kept; its outline is the body). */
export interface WhiteboardElement {
  type: string;
  text?: string;
  x: number;
  y: number;
}

/** Code points, not UTF-16 units: a four-byte character counts once. */
export const codePoints = (text: string): number => {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
};

export const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * A document of the library (spec "Document and folder", "Document visibility"). Markdown is the
 * only kind made through `/v1`; whiteboards and files come through session routes and their body
 * (an outline, or nothing) cannot be edited. The share state lives here: `share` makes the
 * document `public` with a token, a revoke or its expiry leaves it `organization`.
 */
@Entity({ tableName: 'documents', repository: () => DocumentRepository })
export class Document {
  [EntityRepositoryType]?: DocumentRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  title: string;

  @Property({ type: 'text' })
  kind: DocumentKind;

  /** GFM Markdown as sent; a whiteboard's outline; `""` for pdf and file. */
  @Property({ type: 'text', lazy: false })
  body: string = '';

  @Property({ type: 'text' })
  visibility: DocumentVisibility = 'private';

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: ArrayType })
  assigneeIds: string[] = [];

  @Property({ type: 'uuid', nullable: true })
  folderId: string | null = null;

  @Property({ type: 'text', nullable: true })
  shareToken: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  shareExpiresAt: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  shareRevokedAt: Date | null = null;

  @Property({ type: 'bigint' })
  sizeBytes: number = 0;

  @Property({ type: 'json', nullable: true })
  file: DocumentFile | null = null;

  @Property({ type: 'json', nullable: true })
  scene: { elements: WhiteboardElement[] } | null = null;

  @Property({ type: ArrayType })
  attachedListingIds: string[] = [];

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(props: {
    organizationId: string;
    createdBy: string;
    title: string;
    kind: DocumentKind;
    body?: string;
    now: Date;
  }) {
    this.organizationId = props.organizationId;
    this.createdBy = props.createdBy;
    this.title = props.title;
    this.kind = props.kind;
    this.body = props.body ?? '';
    this.sizeBytes = utf8Bytes(this.body);
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  /** Only a Markdown body can be edited (DOCUMENT_KIND_READ_ONLY otherwise). */
  get bodyEditable(): boolean {
    return this.kind === 'markdown';
  }

  /** Title and/or body (the body replaces the whole document); `updatedAt` and `sizeBytes` follow. */
  edit(change: { title?: string; body?: string }, now: Date): void {
    if (change.body !== undefined && !this.bodyEditable) {
      throw new DomainError(
        'DOCUMENT_KIND_READ_ONLY',
        `The body of a ${this.kind} document cannot be edited.`,
      );
    }
    if (change.title !== undefined) this.title = change.title;
    if (change.body !== undefined) {
      this.body = change.body;
      this.sizeBytes = utf8Bytes(change.body);
    }
    this.updatedAt = now;
  }

  /** A live link: public, a token, not revoked (an expired share is revoked by `expireShare`). */
  get shareLive(): boolean {
    return this.visibility === 'public' && this.shareToken !== null && this.shareRevokedAt === null;
  }

  /**
   * Once `shareExpiresAt` passes the document behaves as revoked (`shareRevokedAt` =
   * `shareExpiresAt`). Answers whether it changed (the caller flushes).
   */
  expireShare(now: Date): boolean {
    if (!this.shareLive || !this.shareExpiresAt || this.shareExpiresAt > now) return false;
    this.visibility = 'organization';
    this.shareRevokedAt = this.shareExpiresAt;
    return true;
  }

  /**
   * Share: while live the same token (a sent `expiresAt` replaces the old one, none keeps it);
   * otherwise a new token (`newToken()`), the old one answered 410 from then on (`replaced`).
   */
  share(expiresAt: Date | undefined, newToken: () => string, now: Date): { replaced: string | null } {
    this.expireShare(now);
    if (this.shareLive) {
      if (expiresAt !== undefined) this.shareExpiresAt = expiresAt;
      this.updatedAt = now;
      return { replaced: null };
    }
    const replaced = this.shareToken;
    this.shareToken = newToken();
    this.shareExpiresAt = expiresAt ?? null;
    this.shareRevokedAt = null;
    this.visibility = 'public';
    this.updatedAt = now;
    return { replaced };
  }

  /** Revoke: `organization` (it never becomes private again), the link down; not shared → nothing. */
  revokeShare(now: Date): void {
    this.expireShare(now);
    if (!this.shareLive) return;
    this.visibility = 'organization';
    this.shareRevokedAt = now;
    this.updatedAt = now;
  }

  moveTo(folderId: string | null, now: Date): void {
    this.folderId = folderId;
    this.updatedAt = now;
  }

  setAssignees(userIds: string[], now: Date): void {
    this.assigneeIds = [...new Set(userIds)];
    this.updatedAt = now;
  }
}
