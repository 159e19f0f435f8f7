import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role, type SessionPrincipal } from '@app/platform';
import type { Organization } from '../domain/organization.entity';
import type { User } from '../domain/user.entity';
import { organizationSummary, OrganizationSummaryJson, OrganizationSummaryView } from './organization.view';

export interface UserSummaryJson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
}

export const userSummary = (user: User): UserSummaryJson => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
});

export class UserSummaryView implements UserSummaryJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
}

/** A new session and who it belongs to. */
export interface SignedInJson {
  token: string;
  expiresAt: string;
  user: UserSummaryJson;
  organization: OrganizationSummaryJson;
  role: Role;
}

export const signedInView = (
  token: string,
  expiresAt: Date,
  user: User,
  organization: Organization,
  role: Role,
): SignedInJson => ({
  token,
  expiresAt: expiresAt.toISOString(),
  user: userSummary(user),
  organization: organizationSummary(organization),
  role,
});

/** Sign-up, sign-in and an accepted invitation: a new session and who it belongs to. */
export class SignedInView implements SignedInJson {
  @ApiProperty({ description: 'Session token: send it as `Authorization: Bearer <token>`.' })
  token: string;

  @ApiProperty({ format: 'date-time', description: 'The session ends then (12 hours).' })
  expiresAt: string;

  @ApiProperty({ type: UserSummaryView }) user: UserSummaryView;
  @ApiProperty({ type: OrganizationSummaryView }) organization: OrganizationSummaryView;

  @ApiProperty({
    enum: ROLES,
    description: '`admin` on sign-up; the invited role on an accepted invitation.',
  })
  role: Role;
}

/** The caller's own session. */
export interface SessionJson {
  user: UserSummaryJson;
  organization: OrganizationSummaryJson;
  role: Role;
  expiresAt: string;
}

export const sessionView = (
  actor: SessionPrincipal,
  user: User,
  organization: Organization,
): SessionJson => ({
  user: userSummary(user),
  organization: organizationSummary(organization),
  role: actor.role,
  expiresAt: actor.expiresAt.toISOString(),
});

/** `GET /auth/session`: the caller's session. */
export class SessionView implements SessionJson {
  @ApiProperty({ type: UserSummaryView }) user: UserSummaryView;
  @ApiProperty({ type: OrganizationSummaryView }) organization: OrganizationSummaryView;
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
