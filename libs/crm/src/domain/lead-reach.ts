/**
 * Spec: a member reaches only leads they are assigned to; an admin every lead of the agency.
 * The rule's one home, in both forms it is checked in: on a loaded lead and as SQL. Pure (no
 * framework), since the lead list SQL built on it also runs in the benchmark's baseline server.
 * Everything else asks `LeadAccess`, which applies it.
 */

export interface LeadReachScope {
  organizationId: string;
  /** Set for a member: only leads they are assigned to. Null for an admin. */
  memberId: string | null;
}

export type { Statement } from '@app/platform/core';
import type { Statement } from '@app/platform/core';

export function reachesLead(
  scope: LeadReachScope,
  lead: { organizationId: string; assigneeIds: string[] },
): boolean {
  return (
    lead.organizationId === scope.organizationId &&
    (scope.memberId === null || lead.assigneeIds.includes(scope.memberId))
  );
}

/** The same rule as a WHERE fragment on the leads table aliased `alias`. */
export function leadReachSql(alias: string, scope: LeadReachScope): Statement {
  return scope.memberId === null
    ? { sql: `${alias}.organization_id = ?`, params: [scope.organizationId] }
    : {
        sql: `${alias}.organization_id = ? and ${alias}.assignee_ids @> array[?]::uuid[]`,
        params: [scope.organizationId, scope.memberId],
      };
}

/**
 * Spec (Search): a member's search also covers the leads a collaborating agency shared with them
 * (`lead_share` rows; another agency's leads). The rows as `(organization_id, lead_id)` pairs.
 */
export function leadSharesSql(person: { organizationId: string; userId: string }): Statement {
  return {
    sql: `select s.organization_id, s.lead_id from lead_share s
           where s.shared_with_organization_id = ? and s.shared_with_user_id = ?`,
    params: [person.organizationId, person.userId],
  };
}
