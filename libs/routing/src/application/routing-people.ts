import type { MembersService, TeamsService } from '@app/identity';
import { DAY, type ValidationIssue } from '@app/platform';

/** The start of a `days` window ending now (`leadsLast30Days`). */
export const since = (now: Date, days: number): Date => new Date(now.getTime() - days * DAY);

/**
 * Issues for the `check` ids that are not current members or live teams, with the path of each
 * in the full lists (`userIds[1]`, `teamIds[0]`).
 */
export async function peopleIssues(
  members: MembersService,
  teams: TeamsService,
  organizationId: string,
  lists: { userIds: string[]; teamIds: string[]; check?: { userIds: string[]; teamIds: string[] } },
): Promise<ValidationIssue[]> {
  const check = lists.check ?? lists;
  const [knownUsers, knownTeams] = await Promise.all([
    check.userIds.length > 0
      ? members.existingMemberIds(organizationId, check.userIds)
      : Promise.resolve(new Set<string>()),
    teams.memberIdsOf(organizationId, check.teamIds).then(({ found }) => new Set(found)),
  ]);
  const issues: ValidationIssue[] = [];
  lists.userIds.forEach((id, index) => {
    if (check.userIds.includes(id) && !knownUsers.has(id)) {
      issues.push({ path: `userIds[${index}]`, message: 'is not a member of this organization' });
    }
  });
  lists.teamIds.forEach((id, index) => {
    if (check.teamIds.includes(id) && !knownTeams.has(id)) {
      issues.push({ path: `teamIds[${index}]`, message: 'is not a team of this organization' });
    }
  });
  return issues;
}
