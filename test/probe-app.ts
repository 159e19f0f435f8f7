import { INestApplication, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { ApiModule } from '../apps/api/src/api.module';
import { AppConfig, Clock, configureHttpApp, ManualClock } from '@app/platform';
import { uniqueEmail } from './test-app';

/**
 * The real ApiModule plus test-only controllers (routes the product does not have: a handler that
 * throws, an undeclared route), built the way TestApp.start builds the app.
 */
export class ProbeApp {
  private constructor(
    readonly app: INestApplication,
    readonly http: TestAgent,
  ) {}

  static async start(controllers: Type[]): Promise<ProbeApp> {
    const config = AppConfig.fromEnv({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent' });
    const moduleRef = await Test.createTestingModule({
      imports: [ApiModule.forRoot(config)],
      controllers,
    })
      // a fixed clock: rate windows never roll over in the middle of a test
      .overrideProvider(Clock)
      .useValue(new ManualClock())
      .compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({
      bodyParser: false,
      rawBody: true,
      logger: false,
    });
    configureHttpApp(app);
    await app.init();
    return new ProbeApp(app, request(app.getHttpServer()));
  }

  stop(): Promise<void> {
    return this.app.close();
  }

  /** A new agency's admin; returns the session token. */
  async sessionToken(): Promise<string> {
    const res = await this.http
      .post('/auth/sign-up')
      .send({
        organizationName: 'Probe Agency',
        email: uniqueEmail('probe'),
        password: 'correct horse battery',
        firstName: 'Pia',
        lastName: 'Probe',
      })
      .expect(201);
    return res.body.token as string;
  }
}
