import { MikroORM } from '@mikro-orm/core';
import { Controller, Get, Logger } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { HealthCheckService } from '@nestjs/terminus';
import { Public } from '../auth/access.decorators';
import { ReadinessChecks } from './readiness';
import { ApiErrorResponse, ApiNoBodyError } from '../http/api-errors.decorators';
import { DependencyUnavailableError } from '../errors/domain-error';

export class HealthView {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';
}

export class ReadinessView {
  @ApiProperty({ enum: ['ok'] }) status: 'ok';

  @ApiProperty({
    description: 'Each check that ran, `up`: `database`, `migrations`, and `redis` when REDIS_URL is set.',
    type: 'object',
    additionalProperties: { type: 'string', enum: ['up'] },
    example: { database: 'up', migrations: 'up' },
  })
  checks: Record<string, 'up'>;
}

const UNAVAILABLE =
  'INTERNAL: `A dependency is briefly unavailable; retry with backoff.` when a check fails (`Retry-After: 1`)';

@ApiTags('health')
@Controller('health')
export class HealthController {
  private readonly log = new Logger('Health');

  constructor(
    private readonly orm: MikroORM,
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessChecks,
  ) {}

  /** 200 while the database answers, 503 otherwise. */
  @Get()
  @Public()
  @ApiNoBodyError()
  @ApiOperation({ summary: 'Check that the API and its database answer' })
  @ApiOkResponse({ type: HealthView, description: 'The database answers.' })
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

  /** Readiness: route traffic here only when this answers 200. */
  @Get('ready')
  @Public()
  @ApiNoBodyError()
  @ApiOperation({
    summary: 'Check that the API is ready for traffic',
    description:
      'Readiness: the database answers, every migration is applied and, when REDIS_URL is set, Redis ' +
      'answers. From the stop signal on it answers 503: the process drains and takes nothing new.',
  })
  @ApiOkResponse({ type: ReadinessView, description: 'Every check is up.' })
  @ApiErrorResponse(503, UNAVAILABLE)
  async ready(): Promise<ReadinessView> {
    const result = await this.health.check(this.readiness.all()).catch((err: unknown) => {
      const failed = Object.keys((err as { response?: { error?: object } }).response?.error ?? {});
      this.log.warn({ failed }, 'not ready');
      throw new DependencyUnavailableError(`not ready: ${failed.join(', ') || 'unknown'}`);
    });
    return {
      status: 'ok',
      checks: Object.fromEntries(Object.keys(result.info ?? {}).map((name) => [name, 'up' as const])),
    };
  }

  /** Liveness: the process answers; nothing else is checked (a database outage must not restart it). */
  @Get('live')
  @Public()
  @ApiNoBodyError()
  @ApiOperation({
    summary: 'Check that the API process runs',
    description: 'Liveness: answers 200 while the process runs; checks nothing else.',
  })
  @ApiOkResponse({ type: HealthView, description: 'The process runs.' })
  live(): HealthView {
    return { status: 'ok' };
  }
}
