import type { Statement } from '@app/platform/core';

/** `GET /v1/me`: the key's person and agency in one row. Pure (the benchmark's baseline runs it too). */
export function meStatement(userId: string, organizationId: string): Statement {
  return {
    sql: `select u.first_name, u.last_name, u.email, o.name as org_name
            from users u, organizations o where u.id = ? and o.id = ?`,
    params: [userId, organizationId],
  };
}
