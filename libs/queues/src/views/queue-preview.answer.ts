import { effectiveLanes, type QueueDefinition } from '../domain/queue-definition';
import { describeQueue } from '../domain/queue-description';
import { orderOf, ROWS_PER_LANE } from '../domain/queue-preview.sql';
import { reasonOf } from '../domain/queue-reason';
import type { QueuePreviewJson } from './queue.view';

/** A row of `queuePreviewStatement`: the counts ride on every row; lead rows carry `id`. */
export interface PreviewRow {
  lane_counts: number[];
  rest_count: number;
  cooling_count: number;
  offer_counts: number[];
  id: string | null;
  first_name: string | null;
  last_name: string | null;
  lane: number | null;
  sort_value: unknown;
}

/**
 * The preview's answer from the statement's rows (pure: the benchmark's baseline builds the very
 * same JSON with it). Each row's `reason` is the lane's description and its sort value in words.
 */
export function previewAnswer(definition: QueueDefinition, rows: PreviewRow[]): QueuePreviewJson {
  const { summary, description } = describeQueue(definition);
  const lanes = effectiveLanes(definition);
  const counts = rows[0];
  const texts = new Map(description.lanes.map((lane) => [lane.id, lane.text]));
  return {
    summary,
    description,
    lanes: lanes.map((lane, index) => ({
      id: lane.id,
      name: lane.name,
      count: counts.lane_counts[index] ?? 0,
    })),
    restCount: counts.rest_count,
    coolingDownCount: counts.cooling_count,
    offers: definition.rules.map((rule, index) => ({
      ruleId: rule.id,
      when: rule.when,
      offer: rule.offer,
      count: counts.offer_counts[index] ?? 0,
    })),
    rows: rows
      .filter((row) => row.id !== null)
      .map((row) => {
        const lane = row.lane === null ? null : lanes[row.lane];
        const order = orderOf(lane?.sort ?? null, definition.sort);
        return {
          id: Number(row.id),
          firstName: row.first_name ?? '',
          lastName: row.last_name ?? '',
          laneId: lane?.id ?? null,
          laneName: lane?.name ?? null,
          reason: reasonOf(lane ? (texts.get(lane.id) ?? lane.name) : null, order, row.sort_value),
        };
      }),
    rowsPerLane: ROWS_PER_LANE,
  };
}
