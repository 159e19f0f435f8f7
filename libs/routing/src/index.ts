/**
 * Lead routing (issue 14): the route definition and its validation, the routing facts'
 * conditions, the pure engine `decide(snapshot, facts, now)` and the route problems (domain/);
 * the Nest module with the routes, the decisions and reassignment.
 */
export * from './domain/routing-facts';
export * from './domain/route-definition';
export * from './domain/routing-engine';
export * from './domain/route-problems';
export { isKnownZone, wallTime } from './domain/route-clock';
export * from './domain/route-pool';
export { RoutingModule, RoutingJobsModule, ROUTING_ENTITIES } from './routing.module';
export { ReassignmentService } from './application/reassignment.service';
export { RouteUnassignedService, ROUTE_UNASSIGNED_LIMIT } from './application/route-unassigned.service';
export { LeadAssigner } from './application/lead-assigner';
export { RoutingPreviewService } from './application/routing-preview.service';
export { reassignJobId } from './application/reassignment-scheduler';
export { RoutesService } from './application/routes.service';
