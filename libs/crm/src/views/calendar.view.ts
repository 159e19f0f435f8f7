import { ApiProperty } from '@nestjs/swagger';

/**
 * Item kinds (INTERFACES.md "Calendar"); each comes from the context that owns it. Only kinds a
 * source produces: there is no calendar connection yet, so no `appointment`
 * (docs/decisions/0017-calendar-kinds-produced.md).
 */
export const CALENDAR_KINDS = ['task', 'deal_close', 'meeting', 'viewing', 'open_house'] as const;
export type CalendarKind = (typeof CALENDAR_KINDS)[number];

/** Spec: Calendar item. */
export interface CalendarItemJson {
  kind: CalendarKind;
  title: string;
  startsAt: string;
  endsAt: string;
  allDay: boolean;
  status: string | null;
  leadId: number | null;
  eventId: string;
  attendeeCount: number | null;
  done: boolean;
  overdue: boolean;
}

export interface CalendarWindowJson {
  from: string;
  to: string;
  tz: string;
}

export interface CalendarJson {
  window: CalendarWindowJson;
  truncated: boolean;
  items: CalendarItemJson[];
}

/** One thing on a person's calendar (spec: Calendar item). */
export class CalendarItemView implements CalendarItemJson {
  @ApiProperty({
    enum: CALENDAR_KINDS,
    description:
      'Stable values; branch on this: `task` (tasks the person owns or is on), `deal_close` (expected ' +
      'close of their open deals), `meeting` (meetings they created or attend), `viewing` (scheduled ' +
      'viewings where they are the agent), `open_house` (open houses they host). More kinds may be added.',
  })
  kind: CalendarKind;

  @ApiProperty() title: string;

  @ApiProperty({
    format: 'date-time',
    description: 'UTC. An all-day item starts at midnight UTC of its date.',
  })
  startsAt: string;

  @ApiProperty({
    format: 'date-time',
    description: 'UTC. All-day: 24 h after `startsAt`; a timed task: equal to `startsAt`.',
  })
  endsAt: string;

  @ApiProperty({ description: 'A date-only item: on its date whatever `tz`.' }) allDay: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'pending',
    description: "The source record's own status (a task's `pending` or `completed`).",
  })
  status: string | null;

  @ApiProperty({ type: 'integer', nullable: true }) leadId: number | null;
  @ApiProperty({ description: "The source record's id (a task's id)." }) eventId: string;

  @ApiProperty({ type: 'integer', nullable: true, description: 'People attending; null for tasks.' })
  attendeeCount: number | null;

  @ApiProperty({ description: 'A completed task.' }) done: boolean;

  @ApiProperty({
    description: 'Still pending and past due (a date-only task from the day after its date).',
  })
  overdue: boolean;
}

/** The window as asked. */
export class CalendarWindowView implements CalendarWindowJson {
  @ApiProperty({ example: '2026-12-01' }) from: string;
  @ApiProperty({ example: '2026-12-08', description: 'Exclusive.' }) to: string;
  @ApiProperty({ example: 'Europe/Madrid' }) tz: string;
}

/** `{window, truncated, items}`: the caller's own calendar, ordered by `startsAt`. */
export class CalendarView implements CalendarJson {
  @ApiProperty({ type: CalendarWindowView }) window: CalendarWindowView;

  @ApiProperty({ description: 'More than 1,000 items fall in the window; narrow it to see the rest.' })
  truncated: boolean;

  @ApiProperty({ type: [CalendarItemView], description: 'At most 1,000, by `startsAt`.' })
  items: CalendarItemView[];
}
