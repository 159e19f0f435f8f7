import type { Role } from '@app/platform';
import type { Membership } from '../domain/membership.entity';
import type { Organization } from '../domain/organization.entity';
import type { Tag } from '../domain/tag.entity';
import type { Team } from '../domain/team.entity';
import type { User } from '../domain/user.entity';

export interface AuthView {
  token: string;
  expiresAt: string;
  user: { id: string; email: string; firstName: string; lastName: string };
  organization: { id: string; name: string };
  role: Role;
}

export interface MemberView {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  imageUrl: string | null;
  role: `org:${Role}`;
}

export interface TeamView {
  id: string;
  name: string;
  color: string | null;
  memberIds: string[];
  memberCount: number;
  archivedAt: string | null;
}

export interface TagView {
  id: string;
  name: string;
  color: string;
  leadCount: number;
  createdBy: string;
  archivedAt: string | null;
  assigneeIds: string[];
  teamIds: string[];
  createdAt: string;
  updatedAt: string;
}

export const userSummary = (user: User) => ({
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
});

export const organizationSummary = (organization: Organization) => ({
  id: organization.id,
  name: organization.name,
});

export const memberView = (user: User, membership: Membership): MemberView => ({
  userId: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  imageUrl: user.imageUrl,
  role: `org:${membership.role}`,
});

export const teamView = (team: Team): TeamView => ({
  id: team.id,
  name: team.name,
  color: team.color,
  memberIds: team.memberIds,
  memberCount: team.memberIds.length,
  archivedAt: team.archivedAt?.toISOString() ?? null,
});

export const tagView = (tag: Tag, leadCount: number): TagView => ({
  id: tag.id,
  name: tag.name,
  color: tag.color,
  leadCount,
  createdBy: tag.createdBy,
  archivedAt: tag.archivedAt?.toISOString() ?? null,
  assigneeIds: tag.assigneeIds,
  teamIds: tag.teamIds,
  createdAt: tag.createdAt.toISOString(),
  updatedAt: tag.updatedAt.toISOString(),
});
