import { ApiProperty } from '@nestjs/swagger';
import type { OffsetResult } from '@app/platform';
import { DocumentRowView, type DocumentRowJson } from './document.view';

/** `GET /v1/documents`: a page of rows, offset paging with the exact total. */
export class DocumentPageView implements OffsetResult<DocumentRowJson> {
  @ApiProperty({ type: [DocumentRowView] }) data: DocumentRowView[];
  @ApiProperty() hasMore: boolean;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The `offset` of the next page while `hasMore`, else null.',
  })
  nextOffset: number | null;
  @ApiProperty({ type: 'integer', description: 'Exact number of documents matching the filters.' })
  total: number;
}
