import { applyDecorators, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { Statement } from '../domain/lead-reach';
import type { TimelineType } from '../domain/lead-history.entity';
import type { TimelineEntryJson } from '../views/timeline.view';
import { discoverMarked } from './discovered-providers';

/** The lead whose timeline is read; the caller already reaches it. */
export interface TimelineLead {
  organizationId: string;
  leadId: number;
}

/** Fills one `<name>ById` map of the page with the records its entries name. */
export interface TimelineById {
  key: `${string}ById`;
  /** The records named by `entries` (one page, already formatted), keyed by their id. */
  fill(lead: TimelineLead, entries: TimelineEntryJson[]): Promise<Record<string, unknown>>;
}

/**
 * What a context contributes to a lead's timeline. Mark the provider class with
 * `@TimelineSourceProvider()` and provide it in the context's module: the timeline finds it at boot.
 */
export interface TimelineSource {
  /** The timeline `type`s it yields; a type has exactly one source. */
  readonly types: readonly TimelineType[];
  /**
   * One SELECT of the lead's entries with these columns, in this order: `type` (text), `date`
   * (timestamptz), `payload` (jsonb: the entry's payload object; a `content` over 1,000 characters
   * is cut and `createdAt`/`updatedAt` strings become ISO dates), `tiebreak` (text: orders entries
   * of the same date, descending). Its `?` placeholders take `params` in order.
   */
  entries(lead: TimelineLead): Statement;
  /** Optional: the `<name>ById` map it fills for the page. */
  readonly byId?: TimelineById;
}

const TIMELINE_SOURCE = Reflector.createDecorator<true>();

/** Marks a provider implementing `TimelineSource`. */
export const TimelineSourceProvider = () => applyDecorators(Injectable(), TIMELINE_SOURCE(true));

/** Every `@TimelineSourceProvider()` of the app, found at boot. */
@Injectable()
export class TimelineSources implements OnModuleInit {
  private sources: TimelineSource[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const sources = discoverMarked<TimelineSource>(this.discovery, this.reflector, TIMELINE_SOURCE);
    claimOnce(
      sources.flatMap((source) => source.types),
      'Timeline type',
    );
    claimOnce(
      sources.flatMap((source) => (source.byId ? [source.byId.key] : [])),
      'Timeline map',
    );
    this.sources = sources;
  }

  all(): readonly TimelineSource[] {
    return this.sources;
  }
}

/** Boot fails when two sources claim the same name. */
export function claimOnce(names: readonly string[], what: string): void {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw new Error(`${what} "${name}" has two sources`);
    seen.add(name);
  }
}
