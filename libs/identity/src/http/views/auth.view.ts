import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '@app/platform';
import type { AccountsService } from '../../application/accounts.service';
import type { MembersService } from '../../application/members.service';
import type { AuthView } from '../../application/views';

export class UserSummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
}

export class OrganizationSummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

/** Sign-up, sign-in and an accepted invitation: a new session and who it belongs to. */
export class SignedInView implements AuthView {
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

/** `GET /auth/session`: the caller's session. */
export class SessionView implements Awaited<ReturnType<AccountsService['session']>> {
  @ApiProperty({ type: UserSummaryView }) user: UserSummaryView;
  @ApiProperty({ type: OrganizationSummaryView }) organization: OrganizationSummaryView;
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}

/** `POST /organization/invitations`: the invitation and its one-time token (valid 7 days). */
export class InvitationView implements Awaited<ReturnType<MembersService['invite']>> {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ enum: ROLES }) role: Role;

  @ApiProperty({ description: 'Shown only here; the invited person sends it to /auth/accept-invitation.' })
  token: string;

  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
