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
export { RoutingModule, ROUTING_ENTITIES } from './routing.module';
