import { IncomingMessage } from 'node:http';
import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { loggableError, scrubLogMessage } from '../errors/loggable-error';
import { AppConfig } from './app-config';

const requestLogging = (config: AppConfig) => config.logLevel === 'debug' || config.logLevel === 'trace';

/**
 * pino's settings. Credentials are redacted; customer data never reaches a line: an error logged
 * as `err` (an Error or `String(err)`) goes through `loggableError` (class, SQLSTATE, statement
 * shape, scrubbed message), and a message that is a stringified database error is reduced the
 * same way (`log.warn(String(err))`).
 */
export const pinoOptions = (config: AppConfig): Options => ({
  level: config.logLevel,
  genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
  autoLogging: requestLogging(config),
  redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
  quietReqLogger: true,
  serializers: { err: loggableError },
  hooks: {
    logMethod(args, method) {
      const scrubbed = args.map((arg: unknown) => (typeof arg === 'string' ? scrubLogMessage(arg) : arg));
      return method.apply(this, scrubbed as Parameters<typeof method>);
    },
  },
});

/** JSON logs with the request id (`pinoOptions`). */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        // per-request loggers only when requests are logged; errors carry the request id anyway
        ...(requestLogging(config) ? {} : { exclude: [{ path: '{*path}', method: RequestMethod.ALL }] }),
        pinoHttp: pinoOptions(config),
      }),
    }),
  ],
})
export class LoggingModule {}
