import type { Statement } from '@app/platform/core';

/**
 * Spec: without a `leadId`, a person's tasks are those they created or are on (admins included).
 * The rule's one home, in the two forms it is read in: an ORM filter and a SQL fragment.
 */
export const personsTasks = (
  personId: string,
): { $or: [{ createdBy: string }, { assigneeIds: { $contains: string[] } }] } => ({
  $or: [{ createdBy: personId }, { assigneeIds: { $contains: [personId] } }],
});

/** The same rule as a WHERE fragment on the tasks table aliased `alias`. */
export const personsTasksSql = (alias: string, personId: string): Statement => ({
  sql: `(${alias}.created_by = ? or ${alias}.assignee_ids @> array[?]::uuid[])`,
  params: [personId, personId],
});
