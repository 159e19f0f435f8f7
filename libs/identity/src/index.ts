export * from './identity.module';
export * from './application/accounts.service';
export * from './application/identity-cleanup.service';
export * from './application/members.service';
export * from './application/organizations.service';
export * from './application/tags.service';
export * from './application/teams.service';
export * from './application/views';
