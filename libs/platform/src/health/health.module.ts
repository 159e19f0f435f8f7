import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { ReadinessChecks } from './readiness';

/** `GET /health`, `/health/ready` and `/health/live`; failures are logged once, by the controller. */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [ReadinessChecks],
})
export class HealthModule {}
