/**
 * Lead routing (issue 14), foundation: the route definition and its validation, the routing facts'
 * conditions, the pure engine `decide(snapshot, facts, now)` and the route problems (domain/).
 * Storage, routes, the transactional fairness and reassignment come later.
 */
export * from './domain/routing-facts';
export * from './domain/route-definition';
export * from './domain/routing-engine';
export * from './domain/route-problems';
export { isKnownZone, wallTime } from './domain/route-clock';
