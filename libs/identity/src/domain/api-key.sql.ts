import type { Statement } from '@app/platform/core';

/**
 * The door's one read: the key by its secret's hash, with its owner's current role and its agency's
 * plan, state and shared search figure. Pure, so the benchmark's framework-free baseline runs the very same statement.
 */
export function doorFactsStatement(secretHash: string): Statement {
  return {
    sql: `select k.id, k.organization_id, k.name, k.prefix_hint, k.legacy, k.system, k.scopes, k.allowed_origins,
                 k.rate_limit_per_minute, k.created_by_id, k.lineage_created_at, k.expires_at, k.revoked_at,
                 k.rotated_to_id, k.grace_until, k.owner_left_at, m.role as owner_role, o.plan_active, o.disabled,
                 o.search_rate_per_minute
            from api_keys k
            join organizations o on o.id = k.organization_id
            left join memberships m on m.user_id = k.created_by_id and m.organization_id = k.organization_id
           where k.secret_hash = ?`,
    params: [secretHash],
  };
}
