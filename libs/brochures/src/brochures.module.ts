import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { ListingsModule } from '@app/listings';
import { BrochurePageService } from './application/brochure-page.service';
import { BrochureViews } from './application/brochure-views';
import { BrochureJobsModule } from './brochure-jobs.module';
import { BrochurePageController } from './http/brochure-page.controller';
import { BrochureAccess } from './application/brochure-access';
import { BrochuresQueries } from './application/brochures.queries';
import { BrochuresService } from './application/brochures.service';
import { BrochuresTimelineSource } from './application/brochures.timeline-source';
import { BrochureListing } from './domain/brochure-listing.entity';
import { Brochure } from './domain/brochure.entity';
import { BrochuresController } from './http/brochures.controller';

export const BROCHURE_ENTITIES = [Brochure, BrochureListing];

/**
 * Brochures (issue 17): shareable pages of listing copies (`/v1/brochures`), the public page
 * `GET /b/{slug}` with its view count, and the expiry job. Listings are read through
 * `ListingSources` (the daily portal allowance reserved before any write).
 */
@Module({
  imports: [
    MikroOrmModule.forFeature(BROCHURE_ENTITIES),
    CrmModule,
    IdentityModule,
    ListingsModule,
    BrochureJobsModule,
  ],
  controllers: [BrochuresController, BrochurePageController],
  providers: [
    BrochureAccess,
    BrochurePageService,
    BrochureViews,
    BrochuresQueries,
    BrochuresService,
    BrochuresTimelineSource,
  ],
  exports: [],
})
export class BrochuresModule {}
