import type { Statement } from '@app/platform/core';

/** `GET /v1/me`: the key's person and agency in one row. Pure (the benchmark's baseline runs it too). */
export function meStatement(userId: string, organizationId: string): Statement {
  return {
    sql: `select u.first_name, u.last_name, u.email, o.name as org_name
            from users u, organizations o where u.id = ? and o.id = ?`,
    params: [userId, organizationId],
  };
}

/**
 * The organization's people and live teams in one round trip (lead routing's pools): members by
 * name, each team with its members, teams by name.
 */
export const directoryStatement = (organizationId: string): Statement => ({
  sql: `select
      coalesce((select json_agg(json_build_object('userId', m.user_id, 'name', trim(u.first_name || ' ' || u.last_name))
                                order by lower(u.first_name), lower(u.last_name), m.user_id)
                  from memberships m join users u on u.id = m.user_id
                 where m.organization_id = ?), '[]') as members,
      coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'memberIds', t.member_ids)
                                order by lower(t.name), t.id)
                  from teams t
                 where t.organization_id = ? and t.archived_at is null), '[]') as teams`,
  params: [organizationId, organizationId],
});
