import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IntegerQuery, IsOmittable, OffsetQueryDto } from '@app/platform';
import type {
  AnalysisInput,
  CallInput,
  EmailInput,
  MessageInput,
  TranscriptInput,
} from '../../application/records-ingest.service';
import {
  CALL_STATUSES,
  CHANNELS,
  DIRECTIONS,
  type Direction,
  EMAIL_SOURCES,
  EMAIL_STATUSES,
  type EmailSource,
  MESSAGE_KINDS,
  MESSAGE_STATUSES,
  NEXT_STEP_OWNERS,
  RECORD_LIMITS,
  SENTIMENTS,
  SIGNAL_PATTERN,
} from '../../domain/records';
import { LeadLinkDto } from './intake.dto';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;
const BCP47 = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** An ISO 8601 date-time with `Z` or an offset (a real one: no 31 February). */
const Instant = () =>
  applyDecorators(
    IsString(),
    Matches(TIMESTAMP, { message: '$property must be an ISO 8601 date-time with Z or an offset' }),
    IsISO8601({ strict: true }, { message: '$property must be an ISO 8601 date-time with Z or an offset' }),
  );

const INSTANT: ApiPropertyOptions = { format: 'date-time', description: 'ISO 8601 with `Z` or an offset.' };
const PERSON_ID: ApiPropertyOptions = { format: 'uuid' };
const PERSON_EMAIL: ApiPropertyOptions = { maxLength: 320 };

/** `PUT /integrations/v1/calls/{externalId}`. */
export class CallUpsertDto extends LeadLinkDto implements CallInput {
  @ApiProperty({ enum: DIRECTIONS, description: 'Never changes after the first write (409).' })
  @IsIn(DIRECTIONS)
  direction: Direction;

  @ApiProperty({ enum: CALL_STATUSES }) @IsIn(CALL_STATUSES) status: string;

  @ApiPropertyOptional({ maxLength: 100 }) @IsOmittable() @IsString() @MaxLength(100) outcome?: string;
  @ApiPropertyOptional({ maxLength: 100 }) @IsOmittable() @IsString() @MaxLength(100) endedReason?: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 2147483647 })
  @IsInt()
  @Min(0)
  @Max(2147483647)
  durationSeconds: number;

  @ApiProperty({ description: 'A recording exists at the connector (no bytes are sent).' })
  @IsBoolean()
  hasRecording: boolean;

  @ApiProperty(INSTANT) @Instant() startedAt: string;
  @ApiPropertyOptional(INSTANT) @IsOmittable() @Instant() endedAt?: string;

  @ApiPropertyOptional({
    ...PERSON_ID,
    description: 'The member on the call (or `ownerEmail`); else no owner.',
  })
  @IsOmittable()
  @IsUUID('all')
  ownerUserId?: string;

  @ApiPropertyOptional({
    ...PERSON_EMAIL,
    description: 'The member on the call by email; not a member: no owner.',
  })
  @IsOmittable()
  @IsString()
  @MaxLength(320)
  ownerEmail?: string;
}

/** `PUT /integrations/v1/calls/{externalId}/transcript`. */
export class TranscriptDto implements TranscriptInput {
  @ApiProperty({ minLength: 1, maxLength: RECORD_LIMITS.transcript })
  @IsString()
  @Length(1, RECORD_LIMITS.transcript)
  transcript: string;

  @ApiProperty({ example: 'es-ES', description: 'BCP 47' })
  @IsString()
  @MaxLength(35)
  @Matches(BCP47, { message: 'detectedLanguage must be a BCP 47 tag like es-ES' })
  detectedLanguage: string;
}

export class SentimentDto {
  @ApiProperty({ enum: SENTIMENTS }) @IsIn(SENTIMENTS) overall: string;
  @ApiProperty({ minimum: -1, maximum: 1 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-1)
  @Max(1)
  score: number;
}

export class ObjectionDto {
  @ApiProperty({ maxLength: 200 }) @IsString() @MaxLength(200) topic: string;
  @ApiPropertyOptional({ maxLength: 1000 }) @IsOmittable() @IsString() @MaxLength(1000) quote?: string;
  @ApiProperty() @IsBoolean() handled: boolean;
}

export class NextStepDto {
  @ApiProperty({ maxLength: 1000 }) @IsString() @MaxLength(1000) text: string;
  @ApiProperty({ enum: NEXT_STEP_OWNERS }) @IsIn(NEXT_STEP_OWNERS) owner: string;
  @ApiPropertyOptional(INSTANT) @IsOmittable() @Instant() dueAt?: string;
}

export class CoachingTipDto {
  @ApiProperty({ maxLength: 1000 }) @IsString() @MaxLength(1000) tip: string;
  @ApiPropertyOptional({ maxLength: 60 }) @IsOmittable() @IsString() @MaxLength(60) category?: string;
}

const items = (type: new () => object) =>
  applyDecorators(
    IsArray(),
    ArrayMaxSize(RECORD_LIMITS.analysisItems),
    ValidateNested({ each: true }),
    Type(() => type),
  );

/** `PUT /integrations/v1/calls/{externalId}/analysis`: these field names are answered as they are. */
export class AnalysisDto implements AnalysisInput {
  @ApiProperty({ maxLength: RECORD_LIMITS.summary })
  @IsString()
  @MaxLength(RECORD_LIMITS.summary)
  summary: string;

  @ApiProperty({ type: SentimentDto }) @ValidateNested() @Type(() => SentimentDto) sentiment: SentimentDto;
  @ApiProperty({ type: [ObjectionDto], maxItems: 50 }) @items(ObjectionDto) objections: ObjectionDto[];
  @ApiProperty({ type: [NextStepDto], maxItems: 50 }) @items(NextStepDto) nextSteps: NextStepDto[];
  @ApiProperty({ type: [CoachingTipDto], maxItems: 50 })
  @items(CoachingTipDto)
  coachingTips: CoachingTipDto[];

  @ApiProperty({
    type: [String],
    maxItems: RECORD_LIMITS.signals,
    example: ['call.callback_promised'],
    description: 'Each matches `^call\\.[a-z0-9_]{1,60}$`; the latest call’s are the lead’s `callSignal`.',
  })
  @IsArray()
  @ArrayMaxSize(RECORD_LIMITS.signals)
  @IsString({ each: true })
  @Matches(SIGNAL_PATTERN, { each: true, message: `each signal must match ${SIGNAL_PATTERN.source}` })
  signals: string[];

  @ApiPropertyOptional({ maxLength: 100 }) @IsOmittable() @IsString() @MaxLength(100) model?: string;
  @ApiProperty(INSTANT) @Instant() analyzedAt: string;
}

export class FileNameDto {
  @ApiProperty({ minLength: 1, maxLength: 255 }) @IsString() @Length(1, 255) name: string;
}

/** `PUT /integrations/v1/messages/{externalId}`. */
export class MessageUpsertDto extends LeadLinkDto implements MessageInput {
  @ApiProperty({ enum: CHANNELS }) @IsIn(CHANNELS) channel: string;
  @ApiProperty({ enum: MESSAGE_KINDS }) @IsIn(MESSAGE_KINDS) kind: string;

  @ApiProperty({ enum: DIRECTIONS, description: 'Never changes after the first write (409).' })
  @IsIn(DIRECTIONS)
  direction: Direction;

  @ApiProperty({ enum: MESSAGE_STATUSES }) @IsIn(MESSAGE_STATUSES) status: string;
  @ApiProperty(INSTANT) @Instant() at: string;

  @ApiProperty({ maxLength: RECORD_LIMITS.messageBody, description: 'May be empty (a photo, say).' })
  @IsString()
  @MaxLength(RECORD_LIMITS.messageBody)
  body: string;

  @ApiPropertyOptional({
    type: [FileNameDto],
    maxItems: RECORD_LIMITS.messageFiles,
    description: 'Names only.',
  })
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(RECORD_LIMITS.messageFiles)
  @ValidateNested({ each: true })
  @Type(() => FileNameDto)
  files?: FileNameDto[];

  @ApiPropertyOptional({ ...PERSON_ID, description: 'The member who sent it (or `sentByEmail`).' })
  @IsOmittable()
  @IsUUID('all')
  sentByUserId?: string;

  @ApiPropertyOptional(PERSON_EMAIL) @IsOmittable() @IsString() @MaxLength(320) sentByEmail?: string;
}

/** `PUT /integrations/v1/emails/{externalId}`. */
export class EmailUpsertDto extends LeadLinkDto implements EmailInput {
  @ApiProperty({ enum: EMAIL_SOURCES }) @IsIn(EMAIL_SOURCES) source: EmailSource;

  @ApiPropertyOptional({
    enum: DIRECTIONS,
    description: 'Required for `captured`; never changes after the first write (409).',
  })
  @IsOmittable()
  @IsIn(DIRECTIONS)
  captureDirection?: Direction;

  @ApiProperty({ maxLength: RECORD_LIMITS.emailSubject })
  @IsString()
  @MaxLength(RECORD_LIMITS.emailSubject)
  subject: string;

  @ApiProperty({ enum: EMAIL_STATUSES }) @IsIn(EMAIL_STATUSES) status: string;

  @ApiProperty({ maxLength: 320 })
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'fromAddress must be an email address' })
  fromAddress: string;

  @ApiProperty({ maxLength: 320 })
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'recipientEmail must be an email address' })
  recipientEmail: string;

  @ApiProperty({ maxLength: RECORD_LIMITS.emailBody })
  @IsString()
  @MaxLength(RECORD_LIMITS.emailBody)
  bodyText: string;

  @ApiPropertyOptional(INSTANT) @IsOmittable() @Instant() sentAt?: string;
  @ApiProperty(INSTANT) @Instant() messageAt: string;
  @ApiPropertyOptional(INSTANT) @IsOmittable() @Instant() capturedAt?: string;
}

/** `GET /v1/leads/{leadId}/calls`: offset paging, limit 1-100 (20). */
export class CallsQueryDto extends OffsetQueryDto({ max: 100, default: 20 }) {}

/** `GET /v1/leads/{leadId}/conversation`. */
export class ConversationQueryDto {
  @IntegerQuery({ min: 1, max: 50, default: 20 })
  limit: number = 20;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Only messages older than this (exclusive): the last `at` of the previous page.',
  })
  @IsOptional()
  @Instant()
  before?: string;

  @ApiPropertyOptional({ enum: CHANNELS })
  @IsOptional()
  @IsIn(CHANNELS)
  channel?: string;
}
