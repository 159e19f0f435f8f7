import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength, ValidateIf } from 'class-validator';
import { IntegerQuery, IsOmittable, ApiNullable } from '@app/platform';
import { TASK_STATUSES, type TaskStatus } from '../../domain/task.entity';
import { LeadIdField, UuidList } from './lead.dto';
import { NotInSyncMode, SyncCursor, SyncLimit, SyncQuery, SyncSince } from './sync.dto';

export const NOTE_MAX = 100_000;

export class NoteContentDto {
  @ApiProperty({ minLength: 1, maxLength: NOTE_MAX })
  @IsString()
  @Length(1, NOTE_MAX)
  content: string;
}

/** Without `leadId`: the caller's tasks, or in sync mode (`updatedSince` or `cursor`) their changes. */
export class ListTasksQueryDto implements SyncQuery {
  @IntegerQuery({ min: 1, max: Number.MAX_SAFE_INTEGER })
  @NotInSyncMode()
  leadId?: number;

  @ApiPropertyOptional({ enum: TASK_STATUSES, description: 'Without leadId only' })
  @IsOptional()
  @IsIn(TASK_STATUSES)
  @NotInSyncMode()
  status?: TaskStatus;

  @SyncSince() updatedSince?: string;
  @SyncCursor() cursor?: string;
  @SyncLimit() limit?: number;
}

const DUE_DATE_DOC = {
  type: String,
  nullable: true,
  description: 'YYYY-MM-DD (midnight UTC) or an ISO 8601 timestamp with offset',
};

export class CreateTaskDto {
  @ApiProperty() @LeadIdField() leadId: number;

  @ApiProperty({ maxLength: 500 }) @IsString() @Length(1, 500) title: string;

  @ApiNullable(String, { maxLength: 10_000 })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional(DUE_DATE_DOC)
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  dueDate?: string | null;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @UuidList(50)
  assigneeIds?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @UuidList(50)
  teamIds?: string[];
}

export class ChangeTaskDto {
  @ApiPropertyOptional({ maxLength: 500 }) @IsOmittable() @IsString() @Length(1, 500) title?: string;

  @ApiNullable(String, { maxLength: 10_000 })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(10_000)
  description?: string | null;

  @ApiPropertyOptional(DUE_DATE_DOC)
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  dueDate?: string | null;

  @ApiPropertyOptional({ enum: TASK_STATUSES })
  @IsOmittable()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  @ApiPropertyOptional({ type: [String], description: 'Admin only' })
  @IsOmittable()
  @UuidList(50)
  assigneeIds?: string[];

  @ApiPropertyOptional({ type: [String], description: 'Admin only' })
  @IsOmittable()
  @UuidList(50)
  teamIds?: string[];
}
