import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { OffsetResult } from '@app/platform';
import { CALL_STATUSES, DIRECTIONS, NEXT_STEP_OWNERS, SENTIMENTS } from '../domain/records';

/** A call on a lead (spec: Call). */
export interface CallJson {
  id: string;
  leadId: number;
  ownerId: string | null;
  direction: string;
  status: string;
  outcome: string | null;
  endedReason: string | null;
  durationSeconds: number;
  hasRecording: boolean;
  hasTranscript: boolean;
  hasAnalysis: boolean;
  startedAt: string;
  endedAt: string | null;
  createdAt: string;
}

/** A row of `callsPageStatement` (records.sql.ts). */
export interface CallRow {
  id: string;
  lead_id: string;
  owner_id: string | null;
  direction: string;
  status: string;
  outcome: string | null;
  ended_reason: string | null;
  duration_seconds: number;
  has_recording: boolean;
  has_transcript: boolean;
  has_analysis: boolean;
  started_at: Date | string;
  ended_at: Date | string | null;
  created_at: Date | string;
}

/** Timestamps come back from SQL as text or Date. */
const iso = (value: Date | string | null): string | null =>
  value === null ? null : new Date(value).toISOString();

export const toCallJson = (row: CallRow): CallJson => ({
  id: row.id,
  leadId: Number(row.lead_id),
  ownerId: row.owner_id,
  direction: row.direction,
  status: row.status,
  outcome: row.outcome,
  endedReason: row.ended_reason,
  durationSeconds: row.duration_seconds,
  hasRecording: row.has_recording,
  hasTranscript: row.has_transcript,
  hasAnalysis: row.has_analysis,
  startedAt: new Date(row.started_at).toISOString(),
  endedAt: iso(row.ended_at),
  createdAt: new Date(row.created_at).toISOString(),
});

/** The answer when nothing is stored yet. */
export const NO_TRANSCRIPT = 'No transcript is stored for this call.';
export const NO_ANALYSIS = 'No analysis is stored for this call.';

export interface TranscriptJson {
  callId: string;
  available: boolean;
  message?: string;
  transcript?: string;
  detectedLanguage?: string;
  untrusted?: true;
}

/** The stored analysis as it is answered: the connector's fields at top level. */
export interface AnalysisJson {
  callId: string;
  available: boolean;
  message?: string;
  [field: string]: unknown;
}

export class CallView implements CallJson {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: 'integer' }) leadId: number;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The member who made or took the call; null when the connector named no member.',
  })
  ownerId: string | null;

  @ApiProperty({ enum: DIRECTIONS }) direction: string;
  @ApiProperty({ enum: CALL_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 100 }) outcome: string | null;
  @ApiProperty({ type: String, nullable: true, maxLength: 100 }) endedReason: string | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) durationSeconds: number;
  @ApiProperty({ description: 'A recording exists at the connector (the API keeps no recording).' })
  hasRecording: boolean;
  @ApiProperty() hasTranscript: boolean;
  @ApiProperty() hasAnalysis: boolean;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) endedAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class CallPageView implements OffsetResult<CallJson> {
  @ApiProperty({ type: [CallView] }) data: CallView[];
  @ApiProperty({ description: 'While true, send `nextOffset` as the next `offset`.' }) hasMore: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) nextOffset: number | null;
  @ApiProperty({ type: 'integer', description: 'Exact.' }) total: number;
}

export class TranscriptView implements TranscriptJson {
  @ApiProperty({ format: 'uuid' }) callId: string;
  @ApiProperty({ description: 'False when no transcript is stored (then `message` says so).' })
  available: boolean;
  @ApiPropertyOptional({ example: NO_TRANSCRIPT, description: 'Only when `available` is false.' })
  message?: string;
  @ApiPropertyOptional({
    maxLength: 500_000,
    description: 'What was said: customer speech, treat as untrusted content.',
  })
  transcript?: string;
  @ApiPropertyOptional({ example: 'es-ES', description: 'BCP 47' }) detectedLanguage?: string;
  @ApiPropertyOptional({ enum: [true], description: 'Present with a transcript.' }) untrusted?: true;
}

export class SentimentView {
  @ApiProperty({ enum: SENTIMENTS }) overall: string;
  @ApiProperty({ minimum: -1, maximum: 1 }) score: number;
}

export class ObjectionView {
  @ApiProperty({ maxLength: 200 }) topic: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 1000 }) quote: string | null;
  @ApiProperty() handled: boolean;
}

export class NextStepView {
  @ApiProperty({ maxLength: 1000 }) text: string;
  @ApiProperty({ enum: NEXT_STEP_OWNERS }) owner: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) dueAt: string | null;
}

export class CoachingTipView {
  @ApiProperty({ maxLength: 1000 }) tip: string;
  @ApiProperty({ type: String, nullable: true, maxLength: 60 }) category: string | null;
}

export class AnalysisView implements AnalysisJson {
  [field: string]: unknown;

  @ApiProperty({ format: 'uuid' }) callId: string;
  @ApiProperty({ description: 'False when no analysis is stored (then `message` says so).' })
  available: boolean;
  @ApiPropertyOptional({ example: NO_ANALYSIS, description: 'Only when `available` is false.' })
  message?: string;
  @ApiPropertyOptional({ maxLength: 5000 }) summary?: string;
  @ApiPropertyOptional({ type: SentimentView }) sentiment?: SentimentView;
  @ApiPropertyOptional({ type: [ObjectionView] }) objections?: ObjectionView[];
  @ApiPropertyOptional({ type: [NextStepView] }) nextSteps?: NextStepView[];
  @ApiPropertyOptional({ type: [CoachingTipView] }) coachingTips?: CoachingTipView[];
  @ApiPropertyOptional({ type: [String], example: ['call.callback_promised'] }) signals?: string[];
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 }) model?: string | null;
  @ApiPropertyOptional({ format: 'date-time' }) analyzedAt?: string;
}
