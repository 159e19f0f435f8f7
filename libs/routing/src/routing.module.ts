import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { LeadAssigner } from './application/lead-assigner';
import { LeadRoutingService } from './application/lead-routing.service';
import { ReassignmentScheduler } from './application/reassignment-scheduler';
import { ReassignmentService } from './application/reassignment.service';
import { RouteUnassignedService } from './application/route-unassigned.service';
import { RoutesService } from './application/routes.service';
import { RoutingDecisionsQueries } from './application/routing-decisions.queries';
import { RoutingLeadRouter } from './application/routing-lead-router';
import { RoutingPreviewService } from './application/routing-preview.service';
import { RoutingSnapshots } from './application/routing-snapshots';
import { AwayPeriod } from './domain/away-period.entity';
import { LeadRoute } from './domain/lead-route.entity';
import { RoutingDecisionRecord } from './domain/routing-decision.entity';
import { RoutingSettings } from './domain/routing-settings.entity';
import { LeadRoutingController } from './http/lead-routing.controller';
import { RoutingDecisionsController } from './http/routing-decisions.controller';

export const ROUTING_ENTITIES = [LeadRoute, RoutingSettings, AwayPeriod, RoutingDecisionRecord];

/** What decides and reassigns: shared by the API (RoutingModule) and apps/worker (RoutingJobsModule). */
const DECIDING = [RoutingSnapshots, LeadAssigner, ReassignmentScheduler];

/**
 * Reassignment's periodic sweep and delayed jobs, without routes: apps/worker imports this;
 * RoutingModule brings it into the API.
 */
@Module({
  imports: [MikroOrmModule.forFeature(ROUTING_ENTITIES), IdentityModule, CrmModule],
  providers: [...DECIDING, ReassignmentService],
  exports: [...DECIDING, ReassignmentService],
})
export class RoutingJobsModule {}

/**
 * Lead routing: the routes and their admin routes, the engine's decisions in one transaction per
 * lead (intake through the CRM's `LeadRouter`, route-unassigned, reassignment), the preview and
 * the decision log.
 */
@Module({
  imports: [MikroOrmModule.forFeature(ROUTING_ENTITIES), IdentityModule, CrmModule, RoutingJobsModule],
  controllers: [LeadRoutingController, RoutingDecisionsController],
  providers: [
    RoutesService,
    LeadRoutingService,
    RoutingPreviewService,
    RouteUnassignedService,
    RoutingDecisionsQueries,
    RoutingLeadRouter,
  ],
  exports: [RoutingPreviewService, RouteUnassignedService],
})
export class RoutingModule {}
