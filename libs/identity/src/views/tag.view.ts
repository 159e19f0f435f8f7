import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import type { Tag } from '../domain/tag.entity';

/** A full tag row, with how many of the agency's leads carry it. */
export interface TagJson {
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

export const tagView = (tag: Tag, leadCount: number): TagJson => ({
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

/** A full tag row. */
export class TagView implements TagJson {
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
export class TagListView implements ListResult<TagJson> {
  @ApiProperty({ type: [TagView] }) data: TagView[];
  @ApiProperty({ description: 'Whole list: always false.' }) hasMore: boolean;
}
