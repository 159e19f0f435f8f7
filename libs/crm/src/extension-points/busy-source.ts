import { applyDecorators, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { discoverMarked } from './discovered-providers';
import { claimOnce } from './timeline-source';

/** Whose busy times, over which window, as `GET /v1/calendar/free-times` asks every source. */
export interface BusyRequest {
  organizationId: string;
  /** The caller: their own commitments block. */
  userId: string;
  /** A lead the caller reaches (checked before): its commitments block too. Null without `leadId`. */
  leadId: number | null;
  /** The window as UTC instants. */
  startsAt: Date;
  endsAt: Date;
}

/** A time a slot must not overlap, `[startsAt, endsAt)`. */
export interface BusyTime {
  startsAt: Date;
  endsAt: Date;
}

/**
 * What a context contributes to free-times: the person's commitments that block a slot (their
 * scheduled meetings; later scheduled viewings and hosted open houses) and, with a lead, the
 * lead's. Tasks and deal closes never block, so they have no source. Mark the provider with
 * `@BusySourceProvider()` and provide it in the context's module: free-times finds it at boot.
 */
export interface BusySource {
  /** A name for boot errors (`meetings`, `viewings`); each name has one source. */
  readonly busyName: string;
  busyTimes(request: BusyRequest): Promise<BusyTime[]>;
}

const BUSY_SOURCE = Reflector.createDecorator<true>();

/** Marks a provider implementing `BusySource`. */
export const BusySourceProvider = () => applyDecorators(Injectable(), BUSY_SOURCE(true));

/** Every `@BusySourceProvider()` of the app, found at boot. */
@Injectable()
export class BusySources implements OnModuleInit {
  private sources: BusySource[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const sources = discoverMarked<BusySource>(this.discovery, this.reflector, BUSY_SOURCE);
    claimOnce(
      sources.map((source) => source.busyName),
      'Busy source',
    );
    this.sources = sources;
  }

  all(): readonly BusySource[] {
    return this.sources;
  }
}
