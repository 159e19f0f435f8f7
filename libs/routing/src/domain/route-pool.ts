/**
 * A route's pool, expanded when deciding (INTERFACES.md "Lead routing"): the users it names, in
 * their order, then the current members of its teams by name, without repeats. Named users who
 * left stay in the pool (the engine skips them as `not_member`); `members` lists only the people
 * in the organization now, each with the team that brought them (null when named directly).
 */

export interface PoolPerson {
  userId: string;
  name: string;
}

export interface PoolTeam {
  id: string;
  memberIds: string[];
}

export interface PoolMember {
  userId: string;
  teamId: string | null;
  name: string;
}

export interface ExpandedPool {
  pool: string[];
  members: PoolMember[];
}

/** `people` are the organization's current members by name; `teams` its live teams. */
export function expandPool(
  userIds: readonly string[],
  teamIds: readonly string[],
  people: readonly PoolPerson[],
  teams: readonly PoolTeam[],
): ExpandedPool {
  const byId = new Map(people.map((person) => [person.userId, person]));
  const pool: string[] = [];
  const members: PoolMember[] = [];
  for (const userId of userIds) {
    if (pool.includes(userId)) continue;
    pool.push(userId);
    const person = byId.get(userId);
    if (person) members.push({ userId, teamId: null, name: person.name });
  }
  // the team that brought each person: the first of the route's teams (in its order) holding them
  const broughtBy = new Map<string, string>();
  for (const teamId of teamIds) {
    const team = teams.find((candidate) => candidate.id === teamId);
    for (const userId of team?.memberIds ?? []) {
      if (!broughtBy.has(userId)) broughtBy.set(userId, teamId);
    }
  }
  // people are already by name: walking them keeps the team members in name order
  for (const person of people) {
    const teamId = broughtBy.get(person.userId);
    if (teamId === undefined || pool.includes(person.userId)) continue;
    pool.push(person.userId);
    members.push({ userId: person.userId, teamId, name: person.name });
  }
  return { pool, members };
}
