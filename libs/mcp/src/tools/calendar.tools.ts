import { z } from 'zod';
import { CALENDAR_KINDS, CalendarQueries, FreeTimesQueries } from '@app/crm';
import { defineTool } from './tool';
import { ISO_TIME, LEAD_ID } from './schemas';

const DAY = z.string().describe('YYYY-MM-DD in `tz`.');
const TZ = z.string().min(1).max(64).describe('IANA time zone, e.g. Europe/Madrid.');

/** The key's person's calendar and free slots. */
export const CALENDAR_TOOLS = [
  defineTool({
    name: 'get_calendar',
    title: 'Read my calendar',
    description:
      "The key's person's calendar over [`from` 00:00, `to` 00:00) in `tz` (at most 42 days): their tasks, " +
      'meetings, deal closes, viewings, open houses…, by `startsAt`, at most 1,000 (`truncated`).',
    route: 'GET /v1/calendar',
    input: z.object({ from: DAY, to: DAY.describe('Day after the last (exclusive).'), tz: TZ }),
    output: z.object({
      window: z.object({ from: z.string(), to: z.string(), tz: z.string() }),
      truncated: z.boolean(),
      items: z.array(
        z.object({
          kind: z.enum(CALENDAR_KINDS),
          title: z.string(),
          startsAt: ISO_TIME,
          endsAt: ISO_TIME,
          allDay: z.boolean(),
          status: z.string().nullable(),
          leadId: z.number().int().nullable(),
          eventId: z.string(),
          attendeeCount: z.number().int().nullable(),
          done: z.boolean(),
          overdue: z.boolean(),
        }),
      ),
    }),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(CalendarQueries).read(principal, input),
  }),
  defineTool({
    name: 'find_free_times',
    title: 'Find free times',
    description:
      "Free slots of `durationMinutes` (15-480) in the key's person's working hours over [`from`, `to`) in " +
      "`tz` (at most 14 days), clear of their meetings (and the lead's, with `leadId`); UTC, earliest first.",
    route: 'GET /v1/calendar/free-times',
    input: z.object({
      from: DAY,
      to: DAY.describe('Day after the last (exclusive).'),
      tz: TZ,
      durationMinutes: z.number().int().min(15).max(480),
      leadId: LEAD_ID.optional(),
    }),
    output: z.object({
      timeZone: z.string(),
      durationMinutes: z.number().int(),
      slots: z.array(z.object({ startsAt: ISO_TIME, endsAt: ISO_TIME })),
    }),
    annotations: { readOnlyHint: true },
    run: ({ principal, input, get }) => get(FreeTimesQueries).read(principal, input),
  }),
];
