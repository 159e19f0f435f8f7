import { applyDecorators, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { CalendarItemJson, CalendarKind } from '../views/calendar.view';
import { discoverMarked } from './discovered-providers';
import { claimOnce } from './timeline-source';

/** One person's calendar over one window, as every source is asked for it. */
export interface CalendarRequest {
  organizationId: string;
  /** Whose calendar: always the caller's own. */
  userId: string;
  /** The window as UTC instants: [`from` 00:00, `to` 00:00) in `tz`. */
  startsAt: Date;
  endsAt: Date;
  /** The window's days as asked (YYYY-MM-DD); an all-day item on day D belongs when from ≤ D < to. */
  from: string;
  to: string;
  tz: string;
  /** For `overdue`. */
  now: Date;
  /** Answer at most this many items, earliest `startsAt` first. */
  limit: number;
}

/**
 * What a context contributes to `GET /v1/calendar`. Mark the provider class with
 * `@CalendarSourceProvider()` and provide it in the context's module: the calendar finds it at boot.
 */
export interface CalendarSource {
  /** The item `kind`s it yields; a kind has exactly one source. */
  readonly kinds: readonly CalendarKind[];
  items(request: CalendarRequest): Promise<CalendarItemJson[]>;
}

const CALENDAR_SOURCE = Reflector.createDecorator<true>();

/** Marks a provider implementing `CalendarSource`. */
export const CalendarSourceProvider = () => applyDecorators(Injectable(), CALENDAR_SOURCE(true));

/** Every `@CalendarSourceProvider()` of the app, found at boot. */
@Injectable()
export class CalendarSources implements OnModuleInit {
  private sources: CalendarSource[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const sources = discoverMarked<CalendarSource>(this.discovery, this.reflector, CALENDAR_SOURCE);
    claimOnce(
      sources.flatMap((source) => source.kinds),
      'Calendar kind',
    );
    this.sources = sources;
  }

  all(): readonly CalendarSource[] {
    return this.sources;
  }
}
