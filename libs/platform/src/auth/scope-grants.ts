import { DomainError } from '../errors/domain-error';
import type { GrantableScope, Role, Scope } from './principal';

/**
 * Who may grant which scope, on every kind of key a person makes (API keys, MCP keys): only an
 * admin may grant these (403 API_KEY_SCOPE_NOT_GRANTABLE otherwise).
 */
export const ADMIN_ONLY_SCOPES: readonly GrantableScope[] = ['properties:write', 'media:write'];

/** A member cannot grant the admin-only scopes. */
export function assertGrantable(role: Role, scopes: readonly Scope[]): void {
  if (role !== 'admin' && scopes.some((scope) => ADMIN_ONLY_SCOPES.includes(scope as GrantableScope))) {
    throw new DomainError(
      'API_KEY_SCOPE_NOT_GRANTABLE',
      `Only an admin can grant ${ADMIN_ONLY_SCOPES.join(' or ')}.`,
    );
  }
}
