import { Module } from '@nestjs/common';
import { OutboundHttp } from './outbound-http';
import { OutboundConnector, OutboundResolver } from './outbound-ports';

/** The outbound-request guard (`OutboundHttp`); import it where a context sends a request. */
@Module({
  providers: [OutboundHttp, OutboundResolver, OutboundConnector],
  exports: [OutboundHttp],
})
export class OutboundModule {}
