import type { Statement } from '@app/platform/core';

/**
 * The `/integrations/v1` door's one read: the key by its secret's hash with its agency's name and
 * state. Pure, like the API-key door's statement, so a benchmark baseline can run the same text.
 */
export function integrationDoorStatement(keyHash: string): Statement {
  return {
    sql: `select k.id, k.organization_id, k.name, k.connector, k.prefix_hint, k.revoked_at,
                 o.name as organization_name, o.disabled
            from integration_keys k
            join organizations o on o.id = k.organization_id
           where k.key_hash = ?`,
    params: [keyHash],
  };
}
