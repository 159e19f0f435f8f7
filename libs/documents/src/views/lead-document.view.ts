import { ApiProperty } from '@nestjs/swagger';
import type { ListResult } from '@app/platform';
import { DocumentRowView, type DocumentRowJson } from './document.view';

/** A document attached to a lead: its row and the first receipt of the attachment. */
export interface LeadDocumentJson extends DocumentRowJson {
  attachedBy: string;
  attachedAt: string;
}

export class LeadDocumentView extends DocumentRowView implements LeadDocumentJson {
  @ApiProperty({ format: 'uuid', description: 'Who attached it first (a repeated attach keeps it).' })
  attachedBy: string;
  @ApiProperty({ format: 'date-time', description: 'When it was first attached.' })
  attachedAt: string;
}

/** A lead's documents: the 50 most recently attached the caller can see. */
export class LeadDocumentListView implements ListResult<LeadDocumentJson> {
  @ApiProperty({ type: [LeadDocumentView] }) data: LeadDocumentView[];
  @ApiProperty({ description: 'True when more than 50 visible documents are attached (not listed).' })
  hasMore: boolean;
}
