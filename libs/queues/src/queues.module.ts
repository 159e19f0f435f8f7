import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { OfferTriggers } from './application/offer-triggers';
import { OffersService } from './application/offers.service';
import { QueuePreviewService } from './application/queue-preview.service';
import { QueuesService } from './application/queues.service';
import { Offer } from './domain/offer.entity';
import { Queue } from './domain/queue.entity';
import { OffersController } from './http/offers.controller';
import { QueuesController } from './http/queues.controller';
import { QueueJobsModule } from './queue-jobs.module';

export const QUEUE_ENTITIES = [Queue, Offer];

/**
 * Queues: saved call views over the CRM's leads (reached only through `LeadAccess`), their
 * sidebar, the preview run as one SQL statement, the system queue of every organization, and the
 * offers its rules make when a call ends, a task is completed (the CRM's lead events) or time passes.
 */
@Module({
  imports: [MikroOrmModule.forFeature(QUEUE_ENTITIES), IdentityModule, CrmModule, QueueJobsModule],
  controllers: [QueuesController, OffersController],
  providers: [QueuesService, QueuePreviewService, OffersService, OfferTriggers],
  exports: [QueuesService, QueuePreviewService, OffersService],
})
export class QueuesModule {}
