/**
 * A viewing: a visit of a property with a lead (spec: Viewing). Statuses and kinds, and how long
 * one lasts on a calendar. Pure: no framework.
 */

export const VIEWING_STATUSES = ['scheduled', 'completed', 'cancelled', 'no_show'] as const;
export type ViewingStatus = (typeof VIEWING_STATUSES)[number];

export const VIEWING_KINDS = ['in_person', 'virtual'] as const;
export type ViewingKind = (typeof VIEWING_KINDS)[number];

/** A viewing has no end time: on calendars and free-times it takes an hour from `viewingAt`. */
export const VIEWING_DURATION_MS = 60 * 60 * 1000;

export const VIEWING_NOTES_MAX = 20_000;
export const OTHER_LEADS_MAX = 10;

/** `source` of a viewing a connector wrote. */
export const integrationSource = (connector: string): `integration:${string}` => `integration:${connector}`;

/** How many characters of the notes a list row shows (`notesTruncated` when cut). */
export const VIEWING_NOTES_PREVIEW = 500;

/** `source` of a viewing made on `/v1` with an API key, and by a dashboard session. */
export const API_SOURCE = 'api';
export const USER_SOURCE = 'user';

/**
 * The status moves people make (`PUT /v1/viewings/{id}/status`): scheduled → completed, cancelled
 * or no_show; cancelled or no_show → scheduled (with a new time); completed is final. Whether `from`
 * may move to `to` (the same status is no move).
 */
export function canMoveViewing(from: ViewingStatus, to: ViewingStatus): boolean {
  if (from === 'scheduled') return to !== 'scheduled';
  if (from === 'cancelled' || from === 'no_show') return to === 'scheduled';
  return false;
}
