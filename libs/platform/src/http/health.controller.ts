import { MikroORM } from '@mikro-orm/core';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Public } from '../auth/access.decorators';
import { ApiErrorResponse, ApiNoBodyError } from './api-errors.decorators';
import { DependencyUnavailableError } from '../errors/domain-error';

export class HealthView {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly orm: MikroORM) {}

  /** 200 while the database answers, 503 otherwise. */
  @Get()
  @ApiOperation({ summary: 'Check that the API and its database answer' })
  @Public()
  @ApiOkResponse({ type: HealthView, description: 'The database answers.' })
  @ApiNoBodyError()
  @ApiErrorResponse(
    503,
    'INTERNAL: `A dependency is briefly unavailable; retry with backoff.` when the database does not answer ' +
      '(`Retry-After: 1`)',
  )
  async check(): Promise<HealthView> {
    const { ok } = await this.orm.checkConnection();
    if (!ok) throw new DependencyUnavailableError('database did not answer');
    return { status: 'ok' };
  }
}
