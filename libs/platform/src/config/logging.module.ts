import { IncomingMessage } from 'node:http';
import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from './app-config';

/** JSON logs with the request id; credentials are redacted, never logged. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
          autoLogging: config.logLevel === 'debug' || config.logLevel === 'trace',
          redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
          quietReqLogger: true,
        },
      }),
    }),
  ],
})
export class LoggingModule {}
