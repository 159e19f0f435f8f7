import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { PageResult } from '@app/platform';
import { CRM_STATUSES, type CrmStatus } from '../../domain/lead.entity';
import type { LeadCounts } from '../../application/leads.queries';
import type { LeadsService } from '../../application/leads.service';
import type {
  LeadListItem,
  LeadTagView as LeadTagModel,
  LeadView as LeadModel,
} from '../../application/lead.views';

/** A tag on a lead (the full tag row is on `/v1/tags`). */
export class LeadTagView implements LeadTagModel {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: '#6B7280' }) color: string;
  @ApiProperty({ type: 'integer', description: "How many of the agency's leads carry it." })
  leadCount: number;
}

/** A row of `GET /v1/leads` (spec: Lead list item). */
export class LeadListItemView implements LeadListItem {
  @ApiProperty({ type: 'integer', example: 1042 }) id: number;
  @ApiProperty() firstName: string;
  @ApiProperty() lastName: string;
  @ApiProperty() email: string;
  @ApiProperty() phoneNumber: string;
  @ApiProperty({ type: String, nullable: true, example: 'en-GB', description: 'BCP 47' }) language:
    string | null;
  @ApiProperty({ type: String, nullable: true }) companyName: string | null;

  @ApiProperty({ enum: CRM_STATUSES, description: '`lead` is shown to people as New.' })
  crmStatus: CrmStatus;

  @ApiProperty({ type: [String], description: 'User ids of the owners; [] when unassigned.' })
  assigneeIds: string[];

  @ApiProperty({ format: 'date-time' }) purchasedAt: string;
  @ApiProperty({ type: 'integer' }) totalCalls: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastCallAt: string | null;
  @ApiProperty({ type: 'integer', description: 'Tasks still pending.' }) pendingTasks: number;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Earliest due pending task.',
  })
  nextTaskDueAt: string | null;

  @ApiProperty({ type: String, nullable: true }) leadGroup: string | null;
  @ApiProperty({ type: [LeadTagView] }) tags: LeadTagView[];
}

/** A single lead: the list item plus source, type, creation time and linked chat channels. */
export class LeadView extends LeadListItemView implements LeadModel {
  @ApiProperty({ example: 'api', description: 'Where the lead came from (`api` for leads created here).' })
  source: string;

  @ApiProperty({ type: String, nullable: true, example: 'buyer' }) leadType: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: [String], description: 'Linked chat channels.' }) channels: string[];
}

/** `{data: Lead[], hasMore, page, limit, total}`, newest first; `total` is exact. */
export class LeadPageView implements PageResult<LeadListItem> {
  @ApiProperty({ type: [LeadListItemView] }) data: LeadListItemView[];
  @ApiProperty() hasMore: boolean;
  @ApiProperty({ type: 'integer', minimum: 1 }) page: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100 }) limit: number;
  @ApiProperty({ type: 'integer', description: 'Exact number of leads matching the filters.' }) total: number;
}

/** `{lead}`: a created lead, or a lead whose owners changed. */
export class WrappedLeadView implements Awaited<ReturnType<LeadsService['create']>> {
  @ApiProperty({ type: LeadView }) lead: LeadView;
}

/** Leads per `crmStatus`; a member counts only their own leads. */
export class LeadCountsView implements LeadCounts {
  @ApiProperty({ type: 'integer' }) lead: number;
  @ApiProperty({ type: 'integer' }) potential: number;
  @ApiProperty({ type: 'integer' }) bad_timing: number;
  @ApiProperty({ type: 'integer' }) client: number;
  @ApiProperty({ type: 'integer' }) unqualified: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Leads with no owner; admins only.' })
  unassigned?: number;
}

/** `POST /v1/leads/status`. */
export class BulkLeadStatusResultView implements Awaited<ReturnType<LeadsService['changeStatuses']>> {
  @ApiProperty({
    type: 'integer',
    description: "How many of the agency's leads among `leadIds` were set (unknown ids are skipped).",
  })
  updated: number;
}
