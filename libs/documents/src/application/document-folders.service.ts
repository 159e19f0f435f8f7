import {
  EntityManager,
  ForeignKeyConstraintViolationException,
  UniqueConstraintViolationException,
} from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import {
  Clock,
  conflict,
  forbidden,
  isAdmin,
  notFound,
  preparedRows,
  Principal,
  validationFailed,
} from '@app/platform';
import { viewerOf, visibleDocumentsSql } from '../domain/document-access';
import { DocumentFolder, FOLDER_LIMITS } from '../domain/document-folder.entity';
import { DocumentFolderRepository } from '../domain/document-folder.repository';
import { FolderParents, placementProblem } from '../domain/folder-tree';
import { FolderJson, toFolderJson } from '../views/folder.view';

export interface CreateFolder {
  name: string;
  parentId?: string | null;
}

export interface ChangeFolder {
  name?: string;
  parentId?: string | null;
}

export const FOLDER_NAME_TAKEN = 'A folder with this name already exists here.';
export const FOLDER_NOT_EMPTY = 'The folder is not empty: move or delete its documents and subfolders first.';
export const FOLDER_CREATOR_OR_ADMIN = "Only the folder's creator or an admin can change it.";

/**
 * Folder writes of the library (session routes): create, rename or move, delete when empty. One
 * agency's folder-tree writes run one at a time (a transaction-scoped advisory lock), so two moves
 * at once cannot make a cycle or pass the depth limit. A sibling's name is unique whatever its case
 * (the index `document_folders_sibling_name_unique`): 409 CONFLICT.
 */
@Injectable()
export class DocumentFoldersService {
  constructor(
    private readonly em: EntityManager,
    private readonly folders: DocumentFolderRepository,
    private readonly clock: Clock,
  ) {}

  async create(actor: Principal, input: CreateFolder): Promise<FolderJson> {
    const folder = await this.saving(() =>
      this.em.transactional(async (em) => {
        const parents = await this.lockedTree(actor.organizationId);
        const parentId = input.parentId ?? null;
        this.checkPlacement(null, parentId, parents);
        const created = new DocumentFolder({
          organizationId: actor.organizationId,
          name: input.name,
          parentId,
          createdBy: actor.userId,
          now: this.clock.now(),
        });
        await em.persist(created).flush();
        return created;
      }),
    );
    return toFolderJson(folder, 0);
  }

  /** Its creator or an admin; `parentId` null moves it to the root. */
  async change(actor: Principal, folderId: string, input: ChangeFolder): Promise<FolderJson> {
    const folder = await this.saving(() =>
      this.em.transactional(async (em) => {
        const parents = await this.lockedTree(actor.organizationId);
        const found = await this.manageable(actor, folderId);
        if (input.parentId !== undefined) {
          this.checkPlacement(found.id, input.parentId, parents);
          found.parentId = input.parentId;
        }
        if (input.name !== undefined) found.name = input.name;
        found.updatedAt = this.clock.now();
        await em.flush();
        return found;
      }),
    );
    return toFolderJson(folder, await this.visibleCount(actor, folder.id));
  }

  /** Its creator or an admin, and only when empty: no document (anyone's) and no subfolder. */
  async delete(actor: Principal, folderId: string): Promise<void> {
    await this.saving(() =>
      this.em.transactional(async (em) => {
        await this.lockedTree(actor.organizationId);
        const folder = await this.manageable(actor, folderId);
        const [row] = await preparedRows<{ documents: number; folders: number }>(em, {
          sql: `select (select count(*)::int from documents where organization_id = ? and folder_id = ?) as documents,
                       (select count(*)::int from document_folders where organization_id = ? and parent_id = ?) as folders`,
          params: [actor.organizationId, folder.id, actor.organizationId, folder.id],
        });
        if (row.documents > 0 || row.folders > 0) throw conflict(FOLDER_NOT_EMPTY);
        await em.remove(folder).flush();
      }),
    );
  }

  /** One of the agency's folders (for moving a document or uploading into it); else 404. */
  async requireFolder(organizationId: string, folderId: string): Promise<DocumentFolder> {
    const folder = await this.folders.findInOrg(organizationId, { id: folderId });
    if (!folder) throw notFound('Folder');
    return folder;
  }

  private async manageable(actor: Principal, folderId: string): Promise<DocumentFolder> {
    const folder = await this.requireFolder(actor.organizationId, folderId);
    if (folder.createdBy !== actor.userId && !isAdmin(actor)) throw forbidden(FOLDER_CREATOR_OR_ADMIN);
    return folder;
  }

  /** The agency's tree (`id → parentId`), its writes serialized until the transaction ends. */
  private async lockedTree(organizationId: string): Promise<FolderParents> {
    await preparedRows(this.em, {
      sql: `select pg_advisory_xact_lock(hashtextextended(?, 0)) is null as locked`,
      params: [`document_folders:${organizationId}`],
    });
    const all = await this.folders.byName(organizationId);
    return new Map(all.map((folder) => [folder.id, folder.parentId]));
  }

  /** The parent must be the agency's (404), not the folder or below it (400), and the tree ≤ 5 levels (400). */
  private checkPlacement(folderId: string | null, parentId: string | null, parents: FolderParents): void {
    if (parentId !== null && !parents.has(parentId)) throw notFound('Folder');
    const problem = placementProblem(folderId, parentId, parents, FOLDER_LIMITS.depth);
    if (problem === 'cycle') {
      throw validationFailed([
        { path: 'parentId', message: 'cannot be the folder itself or one of its subfolders' },
      ]);
    }
    if (problem === 'too-deep') {
      throw validationFailed([
        { path: 'parentId', message: `folders nest at most ${FOLDER_LIMITS.depth} levels deep` },
      ]);
    }
  }

  private async visibleCount(actor: Principal, folderId: string): Promise<number> {
    const visible = visibleDocumentsSql('d', actor.organizationId, viewerOf(actor));
    const [row] = await preparedRows<{ n: number }>(this.em, {
      sql: `select count(*)::int as n from documents d where d.folder_id = ? and ${visible.sql}`,
      params: [folderId, ...visible.params],
    });
    return row?.n ?? 0;
  }

  /** A sibling of the same name → 409; a document or subfolder added meanwhile (deferred FK) → 409. */
  private async saving<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException) throw conflict(FOLDER_NAME_TAKEN);
      if (err instanceof ForeignKeyConstraintViolationException) throw conflict(FOLDER_NOT_EMPTY);
      throw err;
    }
  }
}
