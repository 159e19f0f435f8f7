import { applyDecorators, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { discoverMarked } from './discovered-providers';

/**
 * Something that happened to a lead that other contexts react to (queue offers, issue 13 item 8):
 * `call_ended` a call stored with a final status (its first write), `task_completed` a task of the
 * lead completed.
 */
export interface LeadEvent {
  kind: 'call_ended' | 'task_completed';
  organizationId: string;
  leadId: number;
  at: Date;
}

/**
 * Reacts to lead events. Mark the provider class with `@LeadEventListenerProvider()` and provide
 * it in the context's module: the CRM finds it at boot and never imports it.
 */
export interface LeadEventListener {
  onLeadEvent(event: LeadEvent): Promise<void>;
}

const LEAD_EVENT_LISTENER = Reflector.createDecorator<true>();

/** Marks a provider implementing `LeadEventListener`. */
export const LeadEventListenerProvider = () => applyDecorators(Injectable(), LEAD_EVENT_LISTENER(true));

/**
 * Publishes lead events to every listener, right after the write that caused them committed
 * (awaited, so the answer follows the reaction). A listener that fails is logged, never the
 * write's failure: the change is stored and stays.
 */
@Injectable()
export class LeadEvents implements OnModuleInit {
  private readonly log = new Logger('LeadEvents');
  private listeners: LeadEventListener[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    this.listeners = discoverMarked<LeadEventListener>(this.discovery, this.reflector, LEAD_EVENT_LISTENER);
  }

  async publish(event: LeadEvent): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener.onLeadEvent(event);
      } catch (error) {
        // the error's name only: a driver error's message may carry the lead's data
        this.log.warn(`a ${event.kind} listener failed: ${error instanceof Error ? error.name : 'error'}`);
      }
    }
  }
}
