import { DomainError } from '@app/platform/core';
import {
  authorize,
  can,
  canSee,
  DOCUMENT_ACTIONS,
  DOCUMENT_VISIBILITIES,
  visibleDocumentsSql,
  type DocumentAction,
  type DocumentViewer,
  type DocumentVisibility,
} from './document-access';

/**
 * The access policy as a matrix (INTERFACES.md "Documents", Access): every action × visibility ×
 * who asks (the creator, an admin, another member). Seen but not allowed → 403; not seen → 404.
 */
const CREATOR = 'creator-id';
const viewers: Record<'creator' | 'admin' | 'other', DocumentViewer> = {
  creator: { userId: CREATOR, isAdmin: false },
  admin: { userId: 'admin-id', isAdmin: true },
  other: { userId: 'other-id', isAdmin: false },
};
type Who = keyof typeof viewers;

/** The expected answer: allowed, 403 or 404. */
type Outcome = 'ok' | 403 | 404;
const EVERY_VIEWER: DocumentAction[] = ['see', 'edit', 'pin'];

function expected(action: DocumentAction, visibility: DocumentVisibility, who: Who): Outcome {
  if (who === 'creator' || who === 'admin') return 'ok';
  if (visibility === 'private') return 404;
  return EVERY_VIEWER.includes(action) ? 'ok' : 403;
}

const outcome = (action: DocumentAction, visibility: DocumentVisibility, who: Who): Outcome => {
  try {
    authorize(action, { visibility, createdBy: CREATOR }, viewers[who]);
    return 'ok';
  } catch (err) {
    const code = (err as DomainError).code;
    if (code === 'NOT_FOUND') return 404;
    if (code === 'FORBIDDEN') return 403;
    throw err;
  }
};

const matrix = DOCUMENT_ACTIONS.flatMap((action) =>
  DOCUMENT_VISIBILITIES.flatMap((visibility) =>
    (Object.keys(viewers) as Who[]).map((who) => ({
      action,
      visibility,
      who,
      outcome: expected(action, visibility, who),
    })),
  ),
);

describe('document access policy', () => {
  it('covers every action, visibility and viewer', () => {
    expect(matrix).toHaveLength(DOCUMENT_ACTIONS.length * 3 * 3);
  });

  it.each(matrix)(
    '$action on a $visibility document by $who → $outcome',
    ({ action, visibility, who, outcome: want }) => {
      expect(outcome(action, visibility, who)).toBe(want);
      expect(can(action, { visibility, createdBy: CREATOR }, viewers[who])).toBe(want === 'ok');
    },
  );

  it('a member does not see a colleague’s private document; everyone sees organization and public ones', () => {
    expect(canSee({ visibility: 'private', createdBy: CREATOR }, viewers.other)).toBe(false);
    expect(canSee({ visibility: 'organization', createdBy: CREATOR }, viewers.other)).toBe(true);
    expect(canSee({ visibility: 'public', createdBy: CREATOR }, viewers.other)).toBe(true);
  });

  it('an absent document is 404 `Document not found.`', () => {
    expect(() => authorize('see', null, viewers.admin)).toThrow('Document not found.');
  });

  it('lists: an admin sees the organization, a member no colleague’s private document', () => {
    expect(visibleDocumentsSql('d', 'org', viewers.admin)).toEqual({
      sql: 'd.organization_id = ?',
      params: ['org'],
    });
    expect(visibleDocumentsSql('d', 'org', viewers.other)).toEqual({
      sql: "d.organization_id = ? and (d.visibility <> 'private' or d.created_by = ?)",
      params: ['org', 'other-id'],
    });
  });
});
