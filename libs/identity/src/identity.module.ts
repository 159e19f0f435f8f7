import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { ApiKeyAuthenticator, IntegrationKeyAuthenticator, SessionAuthenticator } from '@app/platform';
import { AgentRoster } from './application/agent-roster';
import { DbApiKeyAuthenticator } from './application/api-key-authenticator';
import { ApiKeyMaintenanceService } from './application/api-key-maintenance.service';
import { ApiKeysService } from './application/api-keys.service';
import { DbIntegrationKeyAuthenticator } from './application/integration-key-authenticator';
import { IntegrationKeysService } from './application/integration-keys.service';
import { KeyChangeChannel } from './application/key-change-channel';
import { KeyDoor } from './application/key-door';
import { KeyUsageRecorder } from './application/key-usage.recorder';
import { PeopleDirectory } from './application/people-directory';
import { PeopleQueries } from './application/people.queries';
import { AccountsService } from './application/accounts.service';
import { IdentityCleanupService } from './application/identity-cleanup.service';
import { MembersService } from './application/members.service';
import { OrganizationsService } from './application/organizations.service';
import { PasswordHasher } from './application/password-hasher';
import { SignInLimits } from './application/sign-in-limits';
import { DbSessionAuthenticator } from './application/session-authenticator';
import { TagsService } from './application/tags.service';
import { TeamsService } from './application/teams.service';
import { Agent } from './domain/agent.entity';
import { ApiKey } from './domain/api-key.entity';
import { IntegrationKey } from './domain/integration-key.entity';
import { Invitation } from './domain/invitation.entity';
import { Membership } from './domain/membership.entity';
import { Organization } from './domain/organization.entity';
import { Session } from './domain/session.entity';
import { Tag } from './domain/tag.entity';
import { Team } from './domain/team.entity';
import { User } from './domain/user.entity';
import { AgentsController } from './http/agents.controller';
import { ApiKeysController } from './http/api-keys.controller';
import { AuthController } from './http/auth.controller';
import { IntegrationKeysController, IntegrationMeController } from './http/integration-keys.controller';
import { OrganizationController } from './http/organization.controller';
import { PeopleController } from './http/people.controller';
import { TagsController } from './http/tags.controller';

const IDENTITY_ENTITIES = [
  Organization,
  User,
  Membership,
  Session,
  Invitation,
  Team,
  Tag,
  ApiKey,
  IntegrationKey,
  Agent,
];

@Module({
  imports: [MikroOrmModule.forFeature(IDENTITY_ENTITIES)],
  controllers: [
    AuthController,
    OrganizationController,
    TagsController,
    ApiKeysController,
    PeopleController,
    IntegrationKeysController,
    IntegrationMeController,
    AgentsController,
  ],
  providers: [
    AccountsService,
    MembersService,
    TeamsService,
    TagsService,
    OrganizationsService,
    IdentityCleanupService,
    PasswordHasher,
    SignInLimits,
    ApiKeysService,
    ApiKeyMaintenanceService,
    KeyChangeChannel,
    KeyDoor,
    KeyUsageRecorder,
    PeopleQueries,
    PeopleDirectory,
    AgentRoster,
    { provide: SessionAuthenticator, useClass: DbSessionAuthenticator },
    { provide: ApiKeyAuthenticator, useClass: DbApiKeyAuthenticator },
    IntegrationKeysService,
    { provide: IntegrationKeyAuthenticator, useClass: DbIntegrationKeyAuthenticator },
  ],
  exports: [
    // the door: the platform's guard injects these
    SessionAuthenticator,
    ApiKeyAuthenticator,
    IntegrationKeyAuthenticator,
    // the same door for the MCP context's keys (it plugs its kind in)
    KeyDoor,
    // the CRM (members, teams and tags of a lead) and the demo seeder of apps/ops
    MembersService,
    TeamsService,
    TagsService,
    AccountsService,
    ApiKeysService,
    // a new deal's default currency (the CRM)
    OrganizationsService,
    IntegrationKeysService,
    // lead routing's pools
    PeopleDirectory,
    // listings' agents
    AgentRoster,
  ],
})
export class IdentityModule {}
