import { EntityRepositoryType, BigIntType, Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { LeadHistoryRepository } from './lead-history.repository';

/**
 * Timeline `type` values; stable, documented in the OpenAPI schema. Later contexts add their own
 * (deal, call, email, message, viewing, document).
 */
export const TIMELINE_TYPES = [
  'lead-created',
  'assignee-change',
  'status-change',
  'note',
  'task',
  'deal',
  'call',
  'email',
  'message',
  'viewing',
  'document',
  'inquiry',
  'brochure',
] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];
export type HistorySource = 'api' | 'user';

/** One change to a lead, as the timeline shows it. Changes through the API carry source `api`. */
@Entity({ tableName: 'lead_history', repository: () => LeadHistoryRepository })
export class LeadHistory {
  [EntityRepositoryType]?: LeadHistoryRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: new BigIntType('number') })
  leadId: number;

  @Property({ type: 'text' })
  type: TimelineType;

  @Property({ type: 'json' })
  payload: Record<string, unknown>;

  @Property({ type: 'text' })
  source: HistorySource;

  @Property({ type: 'uuid', nullable: true })
  actorId: string | null;

  @Property({ type: 'datetime' })
  occurredAt: Date;

  constructor(
    props: {
      organizationId: string;
      leadId: number;
      type: TimelineType;
      payload: Record<string, unknown>;
      source: HistorySource;
      actorId: string | null;
    },
    now: Date,
  ) {
    Object.assign(this, props);
    this.occurredAt = now;
  }
}
