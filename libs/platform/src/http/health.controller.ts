import { MikroORM } from '@mikro-orm/core';
import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/access.decorators';
import { DependencyUnavailableError } from './domain-error';
import { ErrorEnvelopeView } from './error-envelope.view';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly orm: MikroORM) {}

  /** 200 while the database answers, 503 otherwise. */
  @Get()
  @Public()
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  @ApiServiceUnavailableResponse({ type: ErrorEnvelopeView })
  async check(): Promise<{ status: 'ok' }> {
    const { ok } = await this.orm.checkConnection();
    if (!ok) throw new DependencyUnavailableError('database did not answer');
    return { status: 'ok' };
  }
}
