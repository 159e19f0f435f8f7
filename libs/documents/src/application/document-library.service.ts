import { EntityManager, ForeignKeyConstraintViolationException } from '@mikro-orm/postgresql';
import { Injectable, Logger } from '@nestjs/common';
import { MembersService } from '@app/identity';
import {
  AppConfig,
  BlobStorage,
  Clock,
  cleanImage,
  conflict,
  isImageRefusal,
  loggableError,
  notFound,
  preparedRows,
  Principal,
  readDocumentImageHeader,
  sniffDocumentImage,
  type UncleanableImage,
  UnreadableImageError,
  validationFailed,
} from '@app/platform';
import { authorize, DocumentAction, viewerOf } from '../domain/document-access';
import { codePoints, Document, DOCUMENT_LIMITS, WhiteboardElement } from '../domain/document.entity';
import { DocumentRepository } from '../domain/document.repository';
import { whiteboardOutline } from '../domain/whiteboard-outline';
import { DocumentJson, toDocumentJson } from '../views/document.view';
import { DocumentAttachmentsReader } from './document-attachments';
import { DocumentFoldersService } from './document-folders.service';

/** Spec: at most 100 pins a person (in an agency); one more → 409 CONFLICT. */
export const PINS_PER_PERSON = 100;
export const PIN_LIMIT_REACHED = `You can pin at most ${PINS_PER_PERSON} documents; unpin one first.`;
/** A listing id as stored on a document (the listings issue checks them against own listings). */
export const LISTING_ID_MAX = 100;

/** An uploaded file as the multipart reader hands it over. */
export interface UploadedDocumentFile {
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

export interface UploadFields {
  title?: string;
  folderId?: string;
}

export interface CreateWhiteboard {
  title: string;
  scene: { elements: WhiteboardElement[] };
}

const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');

/** `pdf` when the bytes start `%PDF-` (whatever the name or type sent), else `file`. */
export const uploadedKind = (bytes: Buffer): 'pdf' | 'file' =>
  bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC) ? 'pdf' : 'file';

/** The default title: the file's name, cut to the title limit (code points). */
export const titleFromFileName = (fileName: string): string =>
  Array.from(fileName.trim()).slice(0, DOCUMENT_LIMITS.title).join('') || 'Untitled file';

/**
 * The library's session routes on documents (INTERFACES.md "Documents", session routes): move,
 * pins, assignees, listings, delete, file upload and whiteboards, each behind the one access
 * policy (`authorize`), each write one transaction, each answer the one Document view.
 */
@Injectable()
export class DocumentLibraryService {
  private readonly log = new Logger('Documents');

  constructor(
    private readonly em: EntityManager,
    private readonly documents: DocumentRepository,
    private readonly folders: DocumentFoldersService,
    private readonly attachments: DocumentAttachmentsReader,
    private readonly members: MembersService,
    private readonly blobs: BlobStorage,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Creator or admin; the folder one of the agency's (404 `Folder not found.`), null: the root. */
  async move(actor: Principal, documentId: string, folderId: string | null): Promise<DocumentJson> {
    return this.change(actor, documentId, 'move', async (document, now) => {
      if (folderId !== null) await this.folders.requireFolder(actor.organizationId, folderId);
      document.moveTo(folderId, now);
    });
  }

  /** Anyone who sees it; personal; a repeat changes nothing; the 101st pin → 409. */
  async pin(actor: Principal, documentId: string): Promise<void> {
    await this.em.transactional(async (em) => {
      await this.authorized(actor, documentId, 'pin');
      await preparedRows(em, {
        sql: `select pg_advisory_xact_lock(hashtextextended(?, 0)) is null as locked`,
        params: [`document_pins:${actor.organizationId}:${actor.userId}`],
      });
      const [row] = await preparedRows<{ pinned: boolean; n: number }>(em, {
        sql: `select exists (select 1 from document_pins where user_id = ? and document_id = ?) as pinned,
                     (select count(*)::int from document_pins where user_id = ? and organization_id = ?) as n`,
        params: [actor.userId, documentId, actor.userId, actor.organizationId],
      });
      if (row.pinned) return;
      if (row.n >= PINS_PER_PERSON) throw conflict(PIN_LIMIT_REACHED);
      await preparedRows(em, {
        sql: `insert into document_pins (organization_id, user_id, document_id, pinned_at)
              values (?, ?, ?, ?) on conflict do nothing returning document_id`,
        params: [actor.organizationId, actor.userId, documentId, this.clock.now()],
      });
    });
  }

  /** Anyone who sees it; not pinned → 204 all the same. */
  async unpin(actor: Principal, documentId: string): Promise<void> {
    await this.authorized(actor, documentId, 'see');
    await preparedRows(this.em, {
      sql: `delete from document_pins where user_id = ? and document_id = ? returning document_id`,
      params: [actor.userId, documentId],
    });
  }

  /** Creator or admin; every id a member of the agency (400 naming `userIds.<i>`). */
  async setAssignees(actor: Principal, documentId: string, userIds: string[]): Promise<DocumentJson> {
    const known = await this.members.existingMemberIds(actor.organizationId, userIds);
    const issues = userIds.flatMap((id, i) =>
      known.has(id) ? [] : [{ path: `userIds.${i}`, message: 'is not a member of this organization' }],
    );
    if (issues.length > 0) throw validationFailed(issues);
    return this.change(actor, documentId, 'assignees', (document, now) => {
      document.setAssignees(userIds, now);
    });
  }

  /** Whoever may edit it; the id kept as sent, once. */
  async attachListing(actor: Principal, documentId: string, listingId: string): Promise<DocumentJson> {
    checkListingId(listingId);
    return this.change(actor, documentId, 'edit', (document, now) => {
      if (document.attachedListingIds.includes(listingId)) return;
      document.attachedListingIds = [...document.attachedListingIds, listingId];
      document.updatedAt = now;
    });
  }

  /** Whoever may edit it; not attached → the document unchanged. */
  async detachListing(actor: Principal, documentId: string, listingId: string): Promise<DocumentJson> {
    checkListingId(listingId);
    return this.change(actor, documentId, 'edit', (document, now) => {
      if (!document.attachedListingIds.includes(listingId)) return;
      document.attachedListingIds = document.attachedListingIds.filter((id) => id !== listingId);
      document.updatedAt = now;
    });
  }

  /**
   * Creator or admin. Its pins and lead attachments go with it (foreign keys cascade); a share
   * token it ever had answers 410 from now on (`document_gone_links`); its file's bytes are removed
   * once the delete committed.
   */
  async delete(actor: Principal, documentId: string): Promise<void> {
    const blobKey = await this.em.transactional(async (em) => {
      const document = await this.authorized(actor, documentId, 'delete');
      if (document.shareToken !== null) {
        await preparedRows(em, {
          sql: `insert into document_gone_links (token, organization_id, gone_at) values (?, ?, ?)
                on conflict (token) do nothing returning token`,
          params: [document.shareToken, actor.organizationId, this.clock.now()],
        });
      }
      await em.remove(document).flush();
      return document.file?.blobKey ?? null;
    });
    if (blobKey !== null) await this.dropBlob(blobKey);
  }

  /**
   * A pdf or file document: private, its bytes behind `BlobStorage` (key = its id), body `""`,
   * `sizeBytes` the kept file's size, title the file's name unless sent. An image (by its bytes) is
   * kept as its clean re-encode (`cleanUpload`).
   */
  async upload(
    actor: Principal,
    file: UploadedDocumentFile | undefined,
    fields: UploadFields,
  ): Promise<DocumentJson> {
    if (!file)
      throw validationFailed([{ path: 'file', message: 'file is required (a multipart part named `file`)' }]);
    if (fields.folderId !== undefined)
      await this.folders.requireFolder(actor.organizationId, fields.folderId);
    const kind = uploadedKind(file.buffer);
    const kept = await cleanUpload(file.buffer);
    const document = new Document({
      organizationId: actor.organizationId,
      createdBy: actor.userId,
      title: fields.title ?? titleFromFileName(file.originalname),
      kind,
      now: this.clock.now(),
    });
    document.file = {
      fileName: file.originalname,
      mimeType: kept.mimeType ?? mimeTypeOf(kind, file.mimetype),
      blobKey: document.id,
    };
    document.sizeBytes = kept.bytes.length;
    document.folderId = fields.folderId ?? null;
    await this.blobs.put(document.id, kept.bytes);
    try {
      await this.em.transactional((em) => em.persist(document).flush());
    } catch (err) {
      await this.dropBlob(document.id);
      if (err instanceof ForeignKeyConstraintViolationException) throw notFound('Folder');
      throw err;
    }
    return this.view(actor, document);
  }

  /** A whiteboard: private, its scene kept, its body the outline (read-only). */
  async createWhiteboard(actor: Principal, input: CreateWhiteboard): Promise<DocumentJson> {
    const elements = input.scene.elements.map(({ type, text, x, y }) => ({
      type,
      ...(text !== undefined ? { text } : {}),
      x,
      y,
    }));
    const outline = whiteboardOutline(elements);
    if (codePoints(outline) > DOCUMENT_LIMITS.bodyCodePoints) {
      throw validationFailed([
        { path: 'scene.elements', message: 'the outline of the texts is longer than 1,000,000 characters' },
      ]);
    }
    const document = new Document({
      organizationId: actor.organizationId,
      createdBy: actor.userId,
      title: input.title,
      kind: 'whiteboard',
      body: outline,
      now: this.clock.now(),
    });
    document.scene = { elements };
    await this.em.transactional((em) => em.persist(document).flush());
    return this.view(actor, document);
  }

  /** One write: the document under the policy, changed by `apply`, flushed, answered. */
  private async change(
    actor: Principal,
    documentId: string,
    action: DocumentAction,
    apply: (document: Document, now: Date) => void | Promise<void>,
  ): Promise<DocumentJson> {
    const document = await this.em.transactional(async (em) => {
      const found = await this.authorized(actor, documentId, action);
      await apply(found, this.clock.now());
      await em.flush();
      return found;
    });
    return this.view(actor, document);
  }

  private async authorized(actor: Principal, documentId: string, action: DocumentAction): Promise<Document> {
    const found = await this.documents.findInOrg(actor.organizationId, { id: documentId });
    return authorize(action, found, viewerOf(actor));
  }

  private async view(actor: Principal, document: Document): Promise<DocumentJson> {
    return toDocumentJson(document, await this.attachments.of(actor, document.id), this.config.publicBaseUrl);
  }

  /** After the fact: a leftover file is harmless, a failed answer for a committed delete is not. */
  private async dropBlob(key: string): Promise<void> {
    try {
      await this.blobs.delete(key);
    } catch (err) {
      this.log.warn({ err: loggableError(err), blobKey: key }, 'blob not deleted');
    }
  }
}

/** Why an image whose location cannot be removed here is refused, by kind. */
export const UNCLEANABLE_IMAGE: Record<UncleanableImage, string> = {
  heic: 'HEIC photos cannot be cleaned of their location; send JPEG or PNG',
  'camera-raw': 'camera raw files cannot be cleaned of their location; send JPEG, PNG or TIFF',
};

/**
 * The bytes a document keeps: an image by its content (JPEG, PNG, WebP, TIFF, GIF, AVIF) re-encoded
 * clean (no EXIF position, serial or time, no XMP, IPTC or ICC; oriented; sRGB; every page or
 * frame), else the bytes as sent. An image past the pixel limit, that cannot be decoded, or whose
 * location cannot be removed (HEIC, camera raw) → 400 naming `file` (docs/security/uploaded-images.md).
 */
async function cleanUpload(bytes: Buffer): Promise<{ bytes: Buffer; mimeType?: string }> {
  const sniffed = sniffDocumentImage(bytes);
  if (!sniffed) return { bytes };
  if (sniffed === 'heic' || sniffed === 'camera-raw')
    throw validationFailed([{ path: 'file', message: UNCLEANABLE_IMAGE[sniffed] }]);
  const header = await readDocumentImageHeader(bytes, sniffed);
  if (isImageRefusal(header)) throw validationFailed([{ path: 'file', message: header.message }]);
  try {
    const clean = await cleanImage(bytes, header);
    return { bytes: clean.bytes, mimeType: clean.mimeType };
  } catch (err) {
    if (!(err instanceof UnreadableImageError)) throw err;
    throw validationFailed([{ path: 'file', message: err.message }]);
  }
}

/** The type the client sent, except that only real PDF bytes are called `application/pdf`. */
export const mimeTypeOf = (kind: 'pdf' | 'file', sent: string): string =>
  kind === 'pdf'
    ? 'application/pdf'
    : sent && sent.toLowerCase() !== 'application/pdf'
      ? sent
      : 'application/octet-stream';

function checkListingId(listingId: string): void {
  if (listingId.length === 0 || listingId.length > LISTING_ID_MAX) {
    throw validationFailed([{ path: 'listingId', message: `must be 1-${LISTING_ID_MAX} characters` }]);
  }
}
