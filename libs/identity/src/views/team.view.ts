import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import type { Team } from '../domain/team.entity';

/** A team as `/v1/teams` shows it (spec: Team). */
export interface TeamSummaryJson {
  id: string;
  name: string;
  color: string | null;
  memberIds: string[];
  memberCount: number;
}

/** A team as the dashboard routes show it: the summary plus `archivedAt`. */
export interface TeamJson extends TeamSummaryJson {
  archivedAt: string | null;
}

export const teamSummary = (team: Team): TeamSummaryJson => ({
  id: team.id,
  name: team.name,
  color: team.color,
  memberIds: team.memberIds,
  memberCount: team.memberIds.length,
});

export const teamView = (team: Team): TeamJson => ({
  ...teamSummary(team),
  archivedAt: team.archivedAt?.toISOString() ?? null,
});

/** A team as `/v1/teams` shows it (spec: Team). */
export class TeamSummaryView implements TeamSummaryJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true, example: '#1E88E5' }) color: string | null;
  @ApiProperty({ type: [String], description: 'User ids' }) memberIds: string[];
  @ApiProperty({ type: 'integer' }) memberCount: number;
}

/** `{data: Team[], hasMore: false}`; archived teams left out. */
export class TeamSummaryListView implements ListResult<TeamSummaryJson> {
  @ApiProperty({ type: [TeamSummaryView] }) data: TeamSummaryView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}

/** A team as the dashboard routes show it: the summary plus `archivedAt`. */
export class TeamView extends TeamSummaryView implements TeamJson {
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) archivedAt: string | null;
}

/** `{data: Team[], hasMore: false}`: live teams by name. */
export class TeamListView implements ListResult<TeamJson> {
  @ApiProperty({ type: [TeamView] }) data: TeamView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}
