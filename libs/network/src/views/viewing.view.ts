import { ApiProperty } from '@nestjs/swagger';
import type { OffsetResult } from '@app/platform';
import {
  VIEWING_KINDS,
  VIEWING_NOTES_MAX,
  VIEWING_NOTES_PREVIEW,
  VIEWING_STATUSES,
  type ViewingKind,
  type ViewingStatus,
} from '../domain/viewing';

/** A viewing (spec "Viewing"): lists cut the notes to 500 characters, reads and writes do not. */
export interface ViewingJson {
  id: string;
  propertyListingId: string | null;
  leadId: number;
  otherLeadIds: number[];
  collaboratorLeadId: number | null;
  agentUserId: string | null;
  dealId: string | null;
  viewingAt: string;
  kind: ViewingKind;
  status: ViewingStatus;
  source: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  notes: string | null;
  notesTruncated: boolean;
}

/** A viewing as its SQL reads it (application/viewing-list.sql.ts). */
export interface ViewingRecord {
  id: string;
  property_listing_id: string | null;
  lead_id: string;
  other_lead_ids: number[];
  collaborator_lead_id: string | null;
  agent_user_id: string | null;
  deal_id: string | null;
  viewing_at: string | Date;
  kind: ViewingKind;
  status: ViewingStatus;
  source: string;
  created_by: string | null;
  created_at: string | Date;
  updated_at: string | Date;
  notes: string | null;
  notes_truncated: boolean;
  /** The record's version (its events' `recordVersion`); not in the view. */
  version: number;
}

/** Timestamps come back as text from this connection's parsers. */
const iso = (value: string | Date): string => new Date(value).toISOString();

export const toViewingJson = (row: ViewingRecord): ViewingJson => ({
  id: row.id,
  propertyListingId: row.property_listing_id,
  leadId: Number(row.lead_id),
  otherLeadIds: row.other_lead_ids.map(Number),
  collaboratorLeadId: row.collaborator_lead_id === null ? null : Number(row.collaborator_lead_id),
  agentUserId: row.agent_user_id,
  dealId: row.deal_id,
  viewingAt: iso(row.viewing_at),
  kind: row.kind,
  status: row.status,
  source: row.source,
  createdBy: row.created_by,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  notes: row.notes,
  notesTruncated: row.notes_truncated,
});

export class ViewingView implements ViewingJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The listing shown.' })
  propertyListingId: string | null;
  @ApiProperty({ type: 'integer', description: 'The viewing’s lead.' }) leadId: number;
  @ApiProperty({ type: [Number], description: 'Other clients of the same viewing (leads).' })
  otherLeadIds: number[];
  @ApiProperty({ type: 'integer', nullable: true }) collaboratorLeadId: number | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The agent (a member).' })
  agentUserId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'A deal of the lead.' })
  dealId: string | null;
  @ApiProperty({ format: 'date-time' }) viewingAt: string;
  @ApiProperty({ enum: VIEWING_KINDS }) kind: ViewingKind;
  @ApiProperty({ enum: VIEWING_STATUSES }) status: ViewingStatus;
  @ApiProperty({
    example: 'api',
    description: '`api` (an API key), `user` (the dashboard) or `integration:<connector>`.',
  })
  source: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null for a connector’s.' })
  createdBy: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({
    type: String,
    nullable: true,
    maxLength: VIEWING_NOTES_MAX,
    description: `Lists show the first ${VIEWING_NOTES_PREVIEW} characters; a read or write the whole notes.`,
  })
  notes: string | null;
  @ApiProperty({ description: 'True when a list cut the notes.' }) notesTruncated: boolean;
}

/** `GET /v1/viewings`: a page of viewings, offset paging with the exact total. */
export class ViewingPageView implements OffsetResult<ViewingJson> {
  @ApiProperty({ type: [ViewingView] }) data: ViewingView[];
  @ApiProperty({ description: 'While true, send `nextOffset` as the next `offset`.' }) hasMore: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) nextOffset: number | null;
  @ApiProperty({ type: 'integer', description: 'Exact number of viewings matching the filters.' })
  total: number;
}
