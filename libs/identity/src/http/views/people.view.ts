import { ApiProperty } from '@nestjs/swagger';
import {
  ROLES,
  SCOPES_GRANTABLE,
  RESERVED_SCOPE,
  type ListResult,
  type Role,
  type Scope,
} from '@app/platform';
import type {
  MemberView as MemberModel,
  TagView as TagModel,
  TeamView as TeamModel,
} from '../../application/views';
import type { PeopleQueries } from '../../application/people.queries';
import { OrganizationSummaryView } from './auth.view';

const ORG_ROLES = ROLES.map((role) => `org:${role}` as const);

/** A person of the agency (spec: Member). */
export class MemberView implements MemberModel {
  @ApiProperty({ format: 'uuid' }) userId: string;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty({ format: 'email' }) email: string;
  @ApiProperty({ type: String, nullable: true }) imageUrl: string | null;
  @ApiProperty({ enum: ORG_ROLES, example: 'org:admin' }) role: `org:${Role}`;
}

/** `{data: Member[], hasMore}`: up to 100 members by name; `hasMore` true means there are more. */
export class MemberListView implements ListResult<MemberModel> {
  @ApiProperty({ type: [MemberView] }) data: MemberView[];
  @ApiProperty() hasMore: boolean;
}

/** A team as `/v1/teams` shows it (spec: Team). */
export class TeamSummaryView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true, example: '#1E88E5' }) color: string | null;
  @ApiProperty({ type: [String], description: 'User ids' }) memberIds: string[];
  @ApiProperty({ type: 'integer' }) memberCount: number;
}

/** `{data: Team[], hasMore: false}`; archived teams left out. */
export class TeamSummaryListView implements Awaited<ReturnType<PeopleQueries['teams']>> {
  @ApiProperty({ type: [TeamSummaryView] }) data: TeamSummaryView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}

/** A team as the dashboard routes show it: the summary plus `archivedAt`. */
export class TeamView extends TeamSummaryView implements TeamModel {
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) archivedAt: string | null;
}

/** `{data: Team[], hasMore: false}`: live teams by name. */
export class TeamListView implements ListResult<TeamModel> {
  @ApiProperty({ type: [TeamView] }) data: TeamView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}

/** A full tag row. */
export class TagView implements TagModel {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: '#6B7280' }) color: string;
  @ApiProperty({ type: 'integer', description: "How many of the agency's leads carry it." })
  leadCount: number;
  @ApiProperty({ format: 'uuid', description: 'User id of its creator.' }) createdBy: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) archivedAt: string | null;
  @ApiProperty({ type: [String] }) assigneeIds: string[];
  @ApiProperty({ type: [String] }) teamIds: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** `{data: Tag[], hasMore: false}`: tags by name. */
export class TagListView implements ListResult<TagModel> {
  @ApiProperty({ type: [TagView] }) data: TagView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}

export class MeUserView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'First and last name.' }) name: string;
  @ApiProperty({ format: 'email' }) email: string;
}

export class MeKeyView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true, description: 'First 12 characters of the key.' })
  prefixHint: string | null;
  @ApiProperty({ enum: [...SCOPES_GRANTABLE, RESERVED_SCOPE], isArray: true }) scopes: Scope[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
}

/** `GET /v1/me`: the key's person, agency, role, plan and the key itself. */
export class MeView implements Awaited<ReturnType<PeopleQueries['me']>> {
  @ApiProperty({ type: MeUserView }) user: MeUserView;
  @ApiProperty({ type: OrganizationSummaryView }) organization: OrganizationSummaryView;
  @ApiProperty({ enum: ROLES }) role: Role;
  @ApiProperty({ description: 'False when the organization has no active plan.' }) entitled: boolean;
  @ApiProperty({ type: MeKeyView }) key: MeKeyView;
}
