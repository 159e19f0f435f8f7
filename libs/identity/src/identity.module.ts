import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { ApiKeyAuthenticator, SessionAuthenticator, unauthenticated } from '@app/platform';
import { AccountsService } from './application/accounts.service';
import { IdentityCleanupService } from './application/identity-cleanup.service';
import { MembersService } from './application/members.service';
import { OrganizationsService } from './application/organizations.service';
import { PasswordHasher } from './application/password-hasher';
import { DbSessionAuthenticator } from './application/session-authenticator';
import { TagsService } from './application/tags.service';
import { TeamsService } from './application/teams.service';
import { Invitation } from './domain/invitation.entity';
import { Membership } from './domain/membership.entity';
import { Organization } from './domain/organization.entity';
import { Session } from './domain/session.entity';
import { Tag } from './domain/tag.entity';
import { Team } from './domain/team.entity';
import { User } from './domain/user.entity';
import { AuthController } from './http/auth.controller';
import { OrganizationController } from './http/organization.controller';
import { TagsController } from './http/tags.controller';

export const IDENTITY_ENTITIES = [Organization, User, Membership, Session, Invitation, Team, Tag];

class NoApiKeys extends ApiKeyAuthenticator {
  async authenticate(): Promise<never> {
    throw unauthenticated('Unknown API key.');
  }
}

@Module({
  imports: [MikroOrmModule.forFeature(IDENTITY_ENTITIES)],
  controllers: [AuthController, OrganizationController, TagsController],
  providers: [
    AccountsService,
    MembersService,
    TeamsService,
    TagsService,
    OrganizationsService,
    IdentityCleanupService,
    PasswordHasher,
    { provide: SessionAuthenticator, useClass: DbSessionAuthenticator },
    { provide: ApiKeyAuthenticator, useClass: NoApiKeys },
  ],
  exports: [
    AccountsService,
    MembersService,
    TeamsService,
    TagsService,
    OrganizationsService,
    IdentityCleanupService,
    SessionAuthenticator,
    ApiKeyAuthenticator,
  ],
})
export class IdentityModule {}
