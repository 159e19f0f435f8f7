import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { LeadRoutingService } from './application/lead-routing.service';
import { RouteUnassignedService } from './application/route-unassigned.service';
import { RoutesService } from './application/routes.service';
import { RoutingPreviewService } from './application/routing-preview.service';
import { RoutingSnapshots } from './application/routing-snapshots';
import { AwayPeriod } from './domain/away-period.entity';
import { LeadRoute } from './domain/lead-route.entity';
import { RoutingDecisionRecord } from './domain/routing-decision.entity';
import { RoutingSettings } from './domain/routing-settings.entity';
import { LeadRoutingController } from './http/lead-routing.controller';

export const ROUTING_ENTITIES = [LeadRoute, RoutingSettings, AwayPeriod, RoutingDecisionRecord];

/**
 * Lead routing: the routes and their admin routes, the engine's decisions in one transaction per
 * lead (intake, route-unassigned, reassignment), the preview and the decision log.
 */
@Module({
  imports: [MikroOrmModule.forFeature(ROUTING_ENTITIES), IdentityModule, CrmModule],
  controllers: [LeadRoutingController],
  providers: [
    RoutingSnapshots,
    RoutingPreviewService,
    RouteUnassignedService,
    RoutesService,
    LeadRoutingService,
  ],
  exports: [],
})
export class RoutingModule {}
