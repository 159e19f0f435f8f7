import type { Statement } from '@app/platform/core';

/**
 * The `/mcp` door's read: the key by its secret's hash, its owner's current role (none when the
 * owner is gone, or joined again after the key was made: leaving ends a key for good) and its
 * agency's plan and state.
 */
export function mcpDoorFactsStatement(secretHash: string): Statement {
  return {
    sql: `select k.id, k.organization_id, k.name, k.prefix_hint, k.scopes, k.owner_id, k.expires_at, k.revoked_at,
                 m.role as owner_role, o.plan_active, o.disabled
            from mcp_keys k
            join organizations o on o.id = k.organization_id
            left join memberships m on m.user_id = k.owner_id and m.organization_id = k.organization_id
                                   and m.created_at <= k.created_at
           where k.secret_hash = ?`,
    params: [secretHash],
  };
}
