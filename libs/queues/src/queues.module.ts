import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { CrmModule } from '@app/crm';
import { IdentityModule } from '@app/identity';
import { QueuePreviewService } from './application/queue-preview.service';
import { QueuesService } from './application/queues.service';
import { Queue } from './domain/queue.entity';
import { QueuesController } from './http/queues.controller';

export const QUEUE_ENTITIES = [Queue];

/**
 * Queues: saved call views over the CRM's leads (reached only through `LeadAccess`), their
 * sidebar, the preview run as one SQL statement, and the system queue of every organization.
 */
@Module({
  imports: [MikroOrmModule.forFeature(QUEUE_ENTITIES), IdentityModule, CrmModule],
  controllers: [QueuesController],
  providers: [QueuesService, QueuePreviewService],
  exports: [QueuesService, QueuePreviewService],
})
export class QueuesModule {}
