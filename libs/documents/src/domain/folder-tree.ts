/**
 * The folder tree's rules, pure (INTERFACES.md "Documents", session routes): folders nest at most
 * `maxDepth` levels (a folder at the root is level 1), and a folder never moves under itself or
 * one of its descendants. Reads the organization's folders as `id → parentId`.
 */
export type FolderParents = ReadonlyMap<string, string | null>;

export type PlacementProblem = 'cycle' | 'too-deep';

/** Level of `folderId` (1 at the root); a broken chain (a loop in stored data) counts as too deep. */
export function depthOf(folderId: string, parents: FolderParents): number {
  let depth = 0;
  let current: string | null = folderId;
  const seen = new Set<string>();
  while (current !== null) {
    if (seen.has(current)) return Number.POSITIVE_INFINITY;
    seen.add(current);
    depth += 1;
    current = parents.get(current) ?? null;
  }
  return depth;
}

/** Whether `candidate` is `folderId` itself or lies below it. */
export function isWithin(candidate: string, folderId: string, parents: FolderParents): boolean {
  let current: string | null = candidate;
  const seen = new Set<string>();
  while (current !== null && !seen.has(current)) {
    if (current === folderId) return true;
    seen.add(current);
    current = parents.get(current) ?? null;
  }
  return false;
}

/** Levels of the subtree rooted at `folderId`, itself included (1 for a folder with no subfolders). */
export function heightOf(folderId: string, parents: FolderParents): number {
  const children = new Map<string, string[]>();
  for (const [id, parentId] of parents) {
    if (parentId === null) continue;
    children.set(parentId, [...(children.get(parentId) ?? []), id]);
  }
  let height = 0;
  let level = [folderId];
  const seen = new Set<string>();
  while (level.length > 0) {
    height += 1;
    const next: string[] = [];
    for (const id of level) {
      if (seen.has(id)) continue;
      seen.add(id);
      next.push(...(children.get(id) ?? []));
    }
    level = next;
  }
  return height;
}

/**
 * Whether `folderId` (null: a new folder) may sit under `parentId` (null: the root): a cycle when
 * the parent is the folder or below it; too deep when its deepest subfolder would pass `maxDepth`.
 */
export function placementProblem(
  folderId: string | null,
  parentId: string | null,
  parents: FolderParents,
  maxDepth: number,
): PlacementProblem | null {
  if (folderId !== null && parentId !== null && isWithin(parentId, folderId, parents)) return 'cycle';
  const above = parentId === null ? 0 : depthOf(parentId, parents);
  const own = folderId === null ? 1 : heightOf(folderId, parents);
  return above + own > maxDepth ? 'too-deep' : null;
}
