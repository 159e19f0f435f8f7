/**
 * What an update changed, for its event (issue 19: `changedFields` and `previous`): the top-level
 * fields of the record's `/v1` view whose JSON differs, and their old values. `updatedAt` (and any
 * field in `ignore`) never counts: it moves on every write.
 */
export function viewChanges<T extends object>(
  before: T,
  after: T,
  ignore: readonly string[] = [],
): { changedFields: string[]; previous: Record<string, unknown> } {
  const changedFields: string[] = [];
  const previous: Record<string, unknown> = {};
  const old = before as Record<string, unknown>;
  const now = after as Record<string, unknown>;
  for (const field of Object.keys(now)) {
    if (field === 'updatedAt' || ignore.includes(field)) continue;
    if (JSON.stringify(old[field]) === JSON.stringify(now[field])) continue;
    changedFields.push(field);
    previous[field] = old[field] ?? null;
  }
  return { changedFields, previous };
}
