import { forbidden, isAdmin, notFound, type Principal } from '@app/platform/core';

/**
 * Who may do what with a document (INTERFACES.md "Documents", Access), the one place the rule
 * lives: `private` → its creator and admins see it; `organization` and `public` → everyone in the
 * organization. Whoever sees it edits its title and body; sharing, revoking, moving, deleting and
 * assignees stay with the creator and admins. Seen but not allowed → 403 FORBIDDEN; not seen →
 * 404 `Document not found.` (a colleague's private document does not exist for a member).
 */

export const DOCUMENT_VISIBILITIES = ['private', 'organization', 'public'] as const;
export type DocumentVisibility = (typeof DOCUMENT_VISIBILITIES)[number];

export const DOCUMENT_ACTIONS = [
  'see',
  'edit',
  'pin',
  'share',
  'revoke',
  'move',
  'delete',
  'assignees',
] as const;
export type DocumentAction = (typeof DOCUMENT_ACTIONS)[number];

/** What the policy reads of a document. */
export interface GuardedDocument {
  visibility: DocumentVisibility;
  createdBy: string;
}

export interface DocumentViewer {
  userId: string;
  isAdmin: boolean;
}

/** The policy's viewer of a caller. */
export const viewerOf = (actor: Principal): DocumentViewer => ({
  userId: actor.userId,
  isAdmin: isAdmin(actor),
});

/** Actions open to whoever sees the document; the rest are the creator's and admins'. */
const FOR_EVERY_VIEWER: ReadonlySet<DocumentAction> = new Set(['see', 'edit', 'pin']);

export function canSee(document: GuardedDocument, viewer: DocumentViewer): boolean {
  return document.visibility !== 'private' || viewer.isAdmin || document.createdBy === viewer.userId;
}

export function can(action: DocumentAction, document: GuardedDocument, viewer: DocumentViewer): boolean {
  if (!canSee(document, viewer)) return false;
  return FOR_EVERY_VIEWER.has(action) || viewer.isAdmin || document.createdBy === viewer.userId;
}

/** The document when `viewer` may do `action`; 404 when they cannot see it (or it is absent), else 403. */
export function authorize<T extends GuardedDocument>(
  action: DocumentAction,
  document: T | null,
  viewer: DocumentViewer,
): T {
  if (!document || !canSee(document, viewer)) throw notFound('Document');
  if (!can(action, document, viewer)) throw forbidden();
  return document;
}

/**
 * The documents `viewer` sees, as a WHERE fragment on `documents` aliased `alias` (the list, the
 * folder counts, a lead's documents): the organization, and for a member no colleague's private one.
 */
export function visibleDocumentsSql(
  alias: string,
  organizationId: string,
  viewer: DocumentViewer,
): { sql: string; params: unknown[] } {
  return viewer.isAdmin
    ? { sql: `${alias}.organization_id = ?`, params: [organizationId] }
    : {
        sql: `${alias}.organization_id = ? and (${alias}.visibility <> 'private' or ${alias}.created_by = ?)`,
        params: [organizationId, viewer.userId],
      };
}
