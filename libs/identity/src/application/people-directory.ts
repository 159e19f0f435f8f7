import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { preparedRows } from '@app/platform';
import { directoryStatement } from './people.sql';

export interface DirectoryMember {
  userId: string;
  name: string;
}

export interface DirectoryTeam {
  id: string;
  name: string;
  memberIds: string[];
}

export interface Directory {
  /** Current members, by name. */
  members: DirectoryMember[];
  /** Live teams, by name. */
  teams: DirectoryTeam[];
}

/** Who is in an organization now, with names, and its live teams: one prepared statement. */
@Injectable()
export class PeopleDirectory {
  constructor(private readonly em: EntityManager) {}

  async of(organizationId: string): Promise<Directory> {
    const [row] = await preparedRows<Directory>(this.em, directoryStatement(organizationId));
    return { members: row?.members ?? [], teams: row?.teams ?? [] };
  }
}
