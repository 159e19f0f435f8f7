import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { MediaCleaner } from './application/media-cleaner';
import { Media } from './domain/media.entity';

/** `MediaCleaner` alone, for the CLI (`media:clean`): the media table and `BlobStorage`, no routes. */
@Module({
  imports: [MikroOrmModule.forFeature([Media])],
  providers: [MediaCleaner],
  exports: [MediaCleaner],
})
export class MediaCleanupModule {}
