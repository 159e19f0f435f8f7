import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { BlobsModule } from '@app/platform';
import { MediaCleaner } from './application/media-cleaner';
import { Media } from './domain/media.entity';

/**
 * `MediaCleaner` alone: the media table and `BlobStorage`, no routes. The CLI (`media:clean`) and
 * apps/worker (its periodic sweep) import this; ListingsModule too (a photo's first read cleans it).
 */
@Module({
  imports: [MikroOrmModule.forFeature([Media]), BlobsModule],
  providers: [MediaCleaner],
  exports: [MediaCleaner],
})
export class MediaCleanupModule {}
