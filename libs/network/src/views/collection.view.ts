import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiNullable, type ListResult } from '@app/platform';
import { COLLECTION_LIMITS } from '../domain/collection';

/** `{source, id}`, plus `country` for portal homes. */
export interface CollectionItemRefJson {
  source: string;
  id: string;
  country?: string;
}

/** A home of a collection (spec "Collection"): an unavailable one carries only its reference. */
export interface CollectionItemJson {
  itemId: string;
  id: string;
  source: string;
  ref: CollectionItemRefJson;
  title: string | null;
  price: string | null;
  currency: string | null;
  city: string | null;
  mainImageUrl: string | null;
  unavailable: boolean;
  addedAt: string;
}

export interface CollectionRowJson {
  id: string;
  name: string;
  homeCount: number;
  updatedAt: string;
}

export interface CollectionJson extends CollectionRowJson {
  createdBy: string;
  memberIds: string[];
  truncated: boolean;
  items: CollectionItemJson[];
}

export class CollectionItemRefView implements CollectionItemRefJson {
  @ApiProperty({ example: 'internal', description: '`internal`, a feed or a portal.' }) source: string;
  @ApiProperty({ description: 'The home’s id within its source.' }) id: string;
  @ApiPropertyOptional({ example: 'es', description: 'Portal homes only.' }) country?: string;
}

export class CollectionItemView implements CollectionItemJson {
  @ApiProperty({ format: 'uuid', description: 'The item’s id (to remove it).' }) itemId: string;
  @ApiProperty({ description: 'The home’s id within its source.' }) id: string;
  @ApiProperty({ example: 'internal' }) source: string;
  @ApiProperty({ type: CollectionItemRefView }) ref: CollectionItemRefView;
  @ApiNullable(String, { description: 'null when unavailable.' }) title: string | null;
  @ApiNullable(String, { example: '350000.00', description: 'Decimal string; null when unavailable.' })
  price: string | null;
  @ApiNullable(String, { example: 'EUR', description: 'null when unavailable.' }) currency: string | null;
  @ApiNullable(String, { description: 'null when unavailable.' }) city: string | null;
  @ApiNullable(String, { description: 'null when unavailable or without images.' }) mainImageUrl:
    string | null;
  @ApiProperty({
    description:
      'The home is gone or no longer readable (deleted, withdrawn, sold, rented, expired, off the network), ' +
      'decided from stored state only; it then carries only its reference.',
  })
  unavailable: boolean;
  @ApiProperty({ format: 'date-time' }) addedAt: string;
}

export class CollectionRowView implements CollectionRowJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ minLength: 1, maxLength: COLLECTION_LIMITS.name }) name: string;
  @ApiProperty({ type: 'integer', maximum: COLLECTION_LIMITS.items }) homeCount: number;
  @ApiProperty({ format: 'date-time', description: 'Renames, items and members bump it.' }) updatedAt: string;
}

export class CollectionView extends CollectionRowView implements CollectionJson {
  @ApiProperty({ format: 'uuid' }) createdBy: string;
  @ApiProperty({
    type: [String],
    description: 'The people who see and change it (the creator always among them).',
  })
  memberIds: string[];
  @ApiProperty({ description: `More than the ${COLLECTION_LIMITS.detailItems} newest items exist.` })
  truncated: boolean;
  @ApiProperty({
    type: [CollectionItemView],
    description: `The ${COLLECTION_LIMITS.detailItems} newest items, newest first.`,
  })
  items: CollectionItemView[];
}

export class CollectionListView implements ListResult<CollectionRowJson> {
  @ApiProperty({
    type: [CollectionRowView],
    description: `The ${COLLECTION_LIMITS.list} most recently changed collections the caller belongs to.`,
  })
  data: CollectionRowView[];
  @ApiProperty({ description: 'More collections exist than the list shows.' }) hasMore: boolean;
}
