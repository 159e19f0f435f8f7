import { applyDecorators, Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import { discoverMarked } from './discovered-providers';

/** The routing facts of a lead that just came in (INTERFACES.md "Lead routing", facts). */
export interface RoutableLead {
  organizationId: string;
  leadId: number;
  source: string;
  origin: string | null;
  leadType: string | null;
  language: string | null;
  country: string | null;
  tagIds: string[];
  growthAreaId: string | null;
  hasPhone: boolean;
  hasEmail: boolean;
  arrivedAt: Date;
}

/** Who routing gave the lead to, and the history `actor` of that change (`routing:<ruleId>`). */
export interface RoutedOwners {
  userIds: string[];
  actor: string;
}

/**
 * Decides the owners of a lead a connector brought in and nobody owns yet (null leaves it
 * unassigned). Runs inside the intake's transaction, with the lead's intake locks held. Mark the
 * provider class with `@LeadRouterProvider()` and provide it in the context's module: the CRM
 * finds it at boot and never imports it (lead routing provides the one the API runs).
 */
export interface LeadRouter {
  route(lead: RoutableLead, now: Date): Promise<RoutedOwners | null>;
}

const LEAD_ROUTER = Reflector.createDecorator<true>();

/** Marks the provider implementing `LeadRouter` (at most one in an app). */
export const LeadRouterProvider = () => applyDecorators(Injectable(), LEAD_ROUTER(true));

/** The app's `LeadRouter`, found at boot; without one every lead stays unassigned. */
@Injectable()
export class LeadRouting implements LeadRouter, OnModuleInit {
  private router: LeadRouter | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const found = discoverMarked<LeadRouter>(this.discovery, this.reflector, LEAD_ROUTER);
    if (found.length > 1) throw new Error('Two providers are marked @LeadRouterProvider(); keep one.');
    this.router = found[0] ?? null;
  }

  route(lead: RoutableLead, now: Date): Promise<RoutedOwners | null> {
    return this.router ? this.router.route(lead, now) : Promise.resolve(null);
  }
}
