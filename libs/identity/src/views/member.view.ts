import { ApiProperty } from '@nestjs/swagger';
import { ROLES, type ListResult, type Role } from '@app/platform';
import type { Membership } from '../domain/membership.entity';
import type { User } from '../domain/user.entity';

const ORG_ROLES = ROLES.map((role) => `org:${role}` as const);

/** A person of the agency (spec: Member). */
export interface MemberJson {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  imageUrl: string | null;
  role: `org:${Role}`;
}

export const memberView = (user: User, membership: Membership): MemberJson => ({
  userId: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  imageUrl: user.imageUrl,
  role: `org:${membership.role}`,
});

/** A person of the agency (spec: Member). */
export class MemberView implements MemberJson {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ type: String, nullable: true }) imageUrl: string | null;
  @ApiProperty({ enum: ORG_ROLES, example: 'org:admin' }) role: `org:${Role}`;
}

/** `{data: Member[], hasMore}`: up to 100 members by name; `hasMore` true means there are more. */
export class MemberListView implements ListResult<MemberJson> {
  @ApiProperty({ type: [MemberView] }) data: MemberView[];
  @ApiProperty() hasMore: boolean;
}
