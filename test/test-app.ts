import { MikroORM } from '@mikro-orm/postgresql';
import { INestApplication, Provider } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { ApiModule } from '../apps/api/src/api.module';
import { AppConfig, Clock, configureHttpApp, ManualClock } from '@app/platform';

export interface SignedIn {
  token: string;
  userId: string;
  organizationId: string;
  email: string;
  password: string;
}

let counter = 0;
/** A unique email per call, so tests never collide. */
export const uniqueEmail = (label = 'person'): string =>
  `${label}.${process.pid}.${Date.now()}.${++counter}@example.test`;

/**
 * The real ApiModule over HTTP on the run's database (test/global-setup.ts), with a clock tests
 * move by hand. Nothing else is replaced.
 */
export class TestApp {
  private constructor(
    readonly app: INestApplication,
    readonly http: TestAgent,
    readonly clock: ManualClock,
    readonly orm: MikroORM,
  ) {}

  static async start(env: NodeJS.ProcessEnv = {}, extra: { providers?: Provider[] } = {}): Promise<TestApp> {
    const config = AppConfig.fromEnv({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent', ...env });
    const clock = new ManualClock();
    const moduleRef = await Test.createTestingModule({
      imports: [ApiModule.forRoot(config)],
      providers: extra.providers,
    })
      .overrideProvider(Clock)
      .useValue(clock)
      .compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({
      bodyParser: false,
      rawBody: true,
      logger: false,
    });
    configureHttpApp(app);
    await app.init();
    return new TestApp(app, request(app.getHttpServer()), clock, app.get(MikroORM));
  }

  get<T>(token: new (...args: never[]) => T): T {
    return this.app.get(token);
  }

  async stop(): Promise<void> {
    await this.app.close();
  }

  /** Rows go, schema stays; the clock returns to real time. */
  async resetRows(): Promise<void> {
    this.clock.reset();
    await this.orm.em.getConnection().execute(`
      do $$ declare tables text;
      begin
        select string_agg(format('%I', tablename), ', ') into tables
          from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations';
        if tables is not null then execute 'truncate ' || tables || ' cascade'; end if;
      end $$;`);
  }

  /** A new agency and its admin, signed in. */
  async signUp(
    overrides: Partial<{ organizationName: string; email: string; firstName: string; lastName: string }> = {},
  ): Promise<SignedIn> {
    const email = overrides.email ?? uniqueEmail('admin');
    const password = 'correct horse battery';
    const res = await this.http
      .post('/auth/sign-up')
      .send({
        organizationName: 'Casa Agency',
        firstName: 'Ana',
        lastName: 'Admin',
        ...overrides,
        email,
        password,
      })
      .expect(201);
    return {
      token: res.body.token,
      userId: res.body.user.id,
      organizationId: res.body.organization.id,
      email,
      password,
    };
  }

  /** Invites a person with `role` into the admin's agency and accepts for them. */
  async addMember(
    admin: SignedIn,
    role: 'admin' | 'member' = 'member',
    firstName = 'Mia',
  ): Promise<SignedIn> {
    const email = uniqueEmail(role);
    const password = 'member password 1';
    const invitation = await this.http
      .post('/organization/invitations')
      .auth(admin.token, { type: 'bearer' })
      .send({ email, role })
      .expect(201);
    const res = await this.http
      .post('/auth/accept-invitation')
      .send({ token: invitation.body.token, password, firstName, lastName: 'Member' })
      .expect(201);
    return {
      token: res.body.token,
      userId: res.body.user.id,
      organizationId: res.body.organization.id,
      email,
      password,
    };
  }
}
