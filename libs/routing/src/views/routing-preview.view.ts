import type { RoutingStep } from '../domain/routing-engine';

/** `POST /v1/lead-routing/preview` (spec "Lead routing" routes). */
export interface RoutingPreviewJson {
  ruleId: string | null;
  routeName: string | null;
  smartRouting: boolean;
  userId: string | null;
  userName: string | null;
  why: string;
  steps: RoutingStep[];
}

/** `POST /v1/lead-routing/route-unassigned`. */
export interface RouteUnassignedJson {
  considered: number;
  assigned: number;
  leftWaiting: number;
}
