export * from './identity.module';
export { AccountsService } from './application/accounts.service';
export { ApiKeyMaintenanceService } from './application/api-key-maintenance.service';
export { ApiKeysService } from './application/api-keys.service';
export { IdentityCleanupService } from './application/identity-cleanup.service';
export { IntegrationKeysService } from './application/integration-keys.service';
export { KeyUsageRecorder } from './application/key-usage.recorder';
// the key door, for the MCP context's keys
export { KeyDoor, type KeyHolder, type KeyKind, type PersonKeyKind } from './application/key-door';
export { MembersService } from './application/members.service';
export { OrganizationsService } from './application/organizations.service';
export { TagsService } from './application/tags.service';
// `GET /v1/me` and the people lists, for the MCP tools mirroring them
export { PeopleQueries } from './application/people.queries';
export { TeamsService } from './application/teams.service';
export { grantableScopes } from './domain/api-key.rules';
export type { OrganizationSearchRate, OrganizationState } from './views/organization.view';
export {
  PeopleDirectory,
  type Directory,
  type DirectoryMember,
  type DirectoryTeam,
} from './application/people-directory';
export { AgentRoster } from './application/agent-roster';
export { Agent, type AgentChanges } from './domain/agent.entity';
export type { AgentListQuery } from './application/agent-list.sql';
export { AgentListQueryDto, CreateAgentDto, UpdateAgentDto } from './http/dto/agent.dto';
export { AgentPageView, AgentView, type AgentJson, type AgentPageJson } from './views/agent.view';
