import { IncomingMessage } from 'node:http';
import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { AppConfig } from './app-config';

const requestLogging = (config: AppConfig) => config.logLevel === 'debug' || config.logLevel === 'trace';

/** JSON logs with the request id; credentials are redacted, never logged. */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // per-request loggers only when requests are logged; errors carry the request id anyway
        ...(requestLogging(config) ? {} : { exclude: [{ path: '{*path}', method: RequestMethod.ALL }] }),
        pinoHttp: {
          level: config.logLevel,
          genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
          autoLogging: requestLogging(config),
          redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
          quietReqLogger: true,
        },
      }),
    }),
  ],
})
export class LoggingModule {}
