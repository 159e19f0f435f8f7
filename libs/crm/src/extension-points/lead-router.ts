import { Injectable } from '@nestjs/common';

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

/**
 * Decides the owners of a lead a connector brought in and nobody owns yet: the user ids to
 * assign, [] to leave it unassigned. Runs inside the intake's transaction. The lead-routing
 * context provides the real one; until then `UnassignedLeadRouter` leaves every lead unassigned.
 */
export abstract class LeadRouter {
  abstract route(lead: RoutableLead): Promise<string[]>;
}

/** The default adapter: nothing takes the lead. */
@Injectable()
export class UnassignedLeadRouter extends LeadRouter {
  route(): Promise<string[]> {
    return Promise.resolve([]);
  }
}
