import { Body, Controller, Get, Headers, HttpCode, Param, Post, Res, UploadedFiles } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPropertyOptional,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import type { Response } from 'express';
import {
  ApiLegacyBadRequestErrors,
  ApiLegacyNotFoundError,
  ApiNoBodyError,
  ApiNotFoundError,
  CurrentPrincipal,
  IsOmittable,
  isUuid,
  ListingWriteRoute,
  MultipartUpload,
  notFound,
  Principal,
  Public,
  VARIANT_TYPES,
} from '@app/platform';
import {
  MEDIA_UPLOAD,
  MediaService,
  type ServedMedia,
  type UploadedMediaFile,
} from '../application/media.service';
import { MEDIA_TYPES } from '../domain/media.entity';
import { MediaListView } from '../views/media.view';

/** The text fields of `POST /properties/media/upload` (the images are the `files` parts). */
export class UploadMediaFieldsDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'An own listing to append the photos to.' })
  @IsOmittable()
  @IsUUID('all')
  propertyId?: string;
}

const UPLOAD_FORM_SCHEMA = {
  type: 'object' as const,
  required: ['files'],
  properties: {
    files: {
      type: 'array' as const,
      minItems: 1,
      maxItems: MEDIA_UPLOAD.maxFiles,
      items: { type: 'string' as const, format: 'binary' },
      description: '1-20 JPEG, PNG or WebP images, each at most 15 MB, all together at most 100 MB.',
    },
    propertyId: {
      type: 'string' as const,
      format: 'uuid',
      description: 'An own live listing: the photos are appended to its `images` (at most 100 in all).',
    },
  },
};

@ApiTags('properties')
@Controller('properties')
export class ListingMediaController {
  constructor(private readonly media: MediaService) {}

  @Post('media/upload')
  @ApiOperation({
    summary: 'Upload listing photos',
    description:
      'Multipart: `files` (1-20 images; each at most 15 MB, all together at most 100 MB, else 413) and ' +
      '`propertyId?`. The type is told by the content only (JPEG, PNG or WebP; the file name and declared ' +
      'type are ignored), else 400 MEDIA_TYPE_NOT_ALLOWED; each side 200-12,000 px, else 400 ' +
      'VALIDATION_FAILED naming `files[i]`; at most 64 megapixels, else the same (told by the header, ' +
      'before anything is decoded). All files are checked before any is stored. Each photo is ' +
      're-encoded: orientation applied, colours converted to sRGB, every metadata block (EXIF with ' +
      'GPS position, camera serial and time; XMP; IPTC; ICC) dropped; the uploaded bytes are not ' +
      'kept. What is kept: the whole photo in its own type (`url`) and `variants` 320, 1024 and 2048 ' +
      'px wide (never wider than the photo) in WebP and JPEG. The same uploaded bytes (SHA-256) answer ' +
      'the agency’s same photo. With `propertyId` the photos are appended to that own listing’s ' +
      '`images` (at most 100) in the same transaction, with a history row. Each photo and variant is ' +
      'served, public by URL.',
  })
  @ListingWriteRoute('media:write')
  @MultipartUpload({
    field: 'files',
    files: { max: MEDIA_UPLOAD.maxFiles },
    maxBytes: MEDIA_UPLOAD.maxFileBytes,
    maxLabel: '15 MB',
    maxTotal: { bytes: MEDIA_UPLOAD.maxTotalBytes, label: '100 MB' },
    schema: UPLOAD_FORM_SCHEMA,
  })
  @ApiCreatedResponse({ type: MediaListView })
  @ApiLegacyBadRequestErrors(
    'VALIDATION_FAILED also for no `files` part, more than 20 files, a side outside 200-12,000 px, ' +
      'more than 64 megapixels or an image that cannot be decoded (`files[i]`), or a listing that ' +
      'would hold more than 100 images.',
    'MEDIA_TYPE_NOT_ALLOWED: a file is not a JPEG, PNG or WebP image by its content.',
  )
  @ApiLegacyNotFoundError('Listing', 'when `propertyId` is absent, deleted or not an own listing')
  upload(
    @CurrentPrincipal() actor: Principal,
    @UploadedFiles() files: UploadedMediaFile[] | undefined,
    @Body() fields: UploadMediaFieldsDto,
  ) {
    return this.media.upload(actor, files, fields);
  }
}

const EXTENSIONS: readonly string[] = Object.values(MEDIA_TYPES);
const VARIANT_EXTENSIONS = VARIANT_TYPES.map((type) => MEDIA_TYPES[type]);
/** `<width>.<webp|jpg>`: a width of 1-5 digits, no leading zero. */
const VARIANT_FILE = /^([1-9][0-9]{0,4})\.(webp|jpg)$/;

const SERVED_HEADERS = {
  'Cache-Control': { description: '`public, max-age=31536000, immutable`', schema: { type: 'string' } },
  ETag: { description: 'The served file’s SHA-256, quoted.', schema: { type: 'string' } },
  'X-Content-Type-Options': { description: '`nosniff`', schema: { type: 'string' } },
};

/** Immutable, nosniff, ETag the served file's hash; `If-None-Match` naming it → 304. */
function answerServed(res: Response, served: ServedMedia, ifNoneMatch: string | undefined): void {
  const etag = `"${served.sha256}"`;
  res.set({
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: etag,
    'X-Content-Type-Options': 'nosniff',
  });
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type(served.mimeType).send(served.bytes);
}

@ApiTags('media')
@Controller('media')
export class MediaFilesController {
  constructor(private readonly media: MediaService) {}

  @Get(':id.:ext')
  @ApiOperation({
    summary: 'Get a listing photo',
    description:
      'The whole photo, re-encoded clean in its own type, public by URL (listing photos are shown on ' +
      'portals and brochures; the id is not guessable). Immutable: `Cache-Control: public, ' +
      'max-age=31536000, immutable`, `ETag` the served file’s SHA-256 (`If-None-Match` → 304), ' +
      '`X-Content-Type-Options: nosniff`. A photo stored before uploads were cleaned is cleaned at its ' +
      'first read (which then takes as long as an upload) and served clean; never as it was stored. An ' +
      'unknown id, another extension than the photo’s, or a stored photo that cannot be cleaned → 404.',
  })
  @Public()
  @ApiParam({ name: 'id', format: 'uuid', description: 'The photo’s id.' })
  @ApiParam({ name: 'ext', enum: EXTENSIONS, description: 'The photo’s own extension.' })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'A previous `ETag`: 304 when it matches.',
  })
  @ApiOkResponse({
    description: 'The image, in its own type.',
    content: Object.fromEntries(
      Object.keys(MEDIA_TYPES).map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
    headers: SERVED_HEADERS,
  })
  @ApiResponse({ status: 304, description: 'Not modified: `If-None-Match` names this content.' })
  @ApiNoBodyError()
  @ApiNotFoundError('Media', 'when the id is unknown or the extension is not the photo’s')
  @HttpCode(200)
  async get(
    @Param('id') id: string,
    @Param('ext') ext: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    if (!isUuid(id) || !EXTENSIONS.includes(ext)) throw notFound('Media');
    answerServed(res, await this.media.served(id.toLowerCase(), ext), ifNoneMatch);
  }

  @Get(':id/:file')
  @ApiOperation({
    summary: 'Get a variant of a listing photo',
    description:
      'One of the photo’s `variants` (its `url`): `<width>.webp` or `<width>.jpg`, the widths the photo ' +
      'lists (320, 1024 and 2048, or its own width where narrower). Public by URL, immutable, `ETag` ' +
      'the served file’s SHA-256 (`If-None-Match` → 304), `nosniff`, as the photo itself. An unknown ' +
      'id, a width or type the photo does not list, or a stored photo that cannot be cleaned → 404 (one ' +
      'stored before uploads were cleaned is cleaned at its first read, as the photo itself).',
  })
  @Public()
  @ApiParam({ name: 'id', format: 'uuid', description: 'The photo’s id.' })
  @ApiParam({
    name: 'file',
    schema: { type: 'string', pattern: VARIANT_FILE.source, example: '1024.webp' },
    description: `\`<width>.<${VARIANT_EXTENSIONS.join('|')}>\`, as in the variant’s \`url\`.`,
  })
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description: 'A previous `ETag`: 304 when it matches.',
  })
  @ApiOkResponse({
    description: 'The variant, WebP or JPEG.',
    content: Object.fromEntries(
      VARIANT_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
    headers: SERVED_HEADERS,
  })
  @ApiResponse({ status: 304, description: 'Not modified: `If-None-Match` names this content.' })
  @ApiNoBodyError()
  @ApiNotFoundError('Media', 'when the id is unknown or the photo has no such variant')
  @HttpCode(200)
  async variant(
    @Param('id') id: string,
    @Param('file') file: string,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = VARIANT_FILE.exec(file);
    if (!isUuid(id) || !parsed) throw notFound('Media');
    const served = await this.media.servedVariant(id.toLowerCase(), Number(parsed[1]), parsed[2]);
    answerServed(res, served, ifNoneMatch);
  }
}
