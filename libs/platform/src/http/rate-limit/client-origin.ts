import { isIPv4, isIPv6 } from 'node:net';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { clientIpOf } from './public-page-rate-limit';

/**
 * The address a limit counts a caller against: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64, since one subscriber is given a whole /64 and could otherwise
 * take a new address for every attempt.
 */
export function limitedAddressOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return mapped[1];
  if (isIPv4(ip)) return ip;
  const bare = ip.split('%')[0];
  if (!isIPv6(bare)) return ip;
  const [head, tail = ''] = bare.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = bare.includes('::') && tail ? tail.split(':') : [];
  // an embedded IPv4 tail (::1.2.3.4) sits in the last 32 bits, past the /64
  const groups = bare.includes('::')
    ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Where a call comes from, for a limit and a log line of a public route (sign-in). */
export interface ClientOrigin {
  /** The client's address as limits count it (`limitedAddressOf` of `req.ip`; `TRUST_PROXY_HOPS`). */
  address: string;
  /** The request id every answer and log line of this call carries. */
  requestId: string;
}

/** `@ClientOrigin() origin: ClientOrigin`: the calling client's limited address and the request id. */
export const ClientOrigin = createParamDecorator((_data: unknown, ctx: ExecutionContext): ClientOrigin => {
  const req = ctx.switchToHttp().getRequest<Request & { id?: string }>();
  return { address: limitedAddressOf(clientIpOf(req)), requestId: String(req.id ?? '') };
});
