import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type Role } from '@app/platform';
import type { Invitation } from '../domain/invitation.entity';

/** A new invitation with its one-time token. */
export interface InvitationJson {
  id: string;
  email: string;
  role: Role;
  token: string;
  expiresAt: string;
}

export const invitationView = (invitation: Invitation, token: string): InvitationJson => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  token,
  expiresAt: invitation.expiresAt.toISOString(),
});

/** `POST /organization/invitations`: the invitation and its one-time token (valid 7 days). */
export class InvitationView implements InvitationJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ enum: ROLES }) role: Role;

  @ApiProperty({ description: 'Shown only here; the invited person sends it to /auth/accept-invitation.' })
  token: string;

  @ApiProperty({ format: 'date-time' }) expiresAt: string;
}
