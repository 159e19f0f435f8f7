import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/platform';
import { DELIVERY_TIMEOUT_MS, isPrivateAddress } from '../domain/webhook-rules';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** DNS for webhook hosts (a port: tests replace it to play a host that changes its addresses). */
@Injectable()
export class WebhookResolver {
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const host = hostname.replace(/^\[(.*)\]$/, '$1');
    const family = isIP(host);
    if (family) return [{ address: host, family: family as 4 | 6 }];
    const found = await dnsLookup(host, { all: true, verbatim: false }); // IPv4 first
    return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  }
}

export class AddressRefused extends Error {}

/** Each attempt's HTTP result; `status` null when no answer came. */
export interface SendResult {
  status: number | null;
  retryAfter: string | undefined;
  durationMs: number;
  error: string | null;
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(what)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });

/**
 * The HTTP side of a delivery: resolves the host, refuses private, loopback, link-local and metadata
 * addresses (unless WEBHOOK_ALLOW_PRIVATE), then connects to the address it checked (the request's
 * `lookup` answers it: no second resolution between check and connect). One POST, 10 s in all,
 * redirects not followed (a 3xx is a failure), the answer's body read and dropped.
 */
@Injectable()
export class WebhookTransport {
  constructor(
    private readonly resolver: WebhookResolver,
    private readonly config: AppConfig,
  ) {}

  /** The address to connect to, or AddressRefused naming why (for `url` validation and each attempt). */
  async checkedAddress(url: URL, timeoutMs = DELIVERY_TIMEOUT_MS): Promise<ResolvedAddress> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await within(this.resolver.resolve(url.hostname), timeoutMs, 'DNS lookup timed out');
    } catch {
      throw new AddressRefused('the host does not resolve');
    }
    if (addresses.length === 0) throw new AddressRefused('the host does not resolve');
    if (!this.config.webhookAllowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
      throw new AddressRefused('the host resolves to a private, loopback, link-local or metadata address');
    }
    return addresses[0];
  }

  async post(rawUrl: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const url = new URL(rawUrl);
    let address: ResolvedAddress;
    try {
      address = await this.checkedAddress(url);
    } catch (err) {
      return { status: null, retryAfter: undefined, durationMs: elapsed(), error: (err as Error).message };
    }
    const pinned: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
      } else callback(null, address.address, address.family);
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const done = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: elapsed() });
      };
      const req = send(
        {
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          agent: false,
          lookup: pinned,
          ...(url.protocol === 'https:' && !isIP(url.hostname) ? { servername: url.hostname } : {}),
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'estate-agency-webhooks/1',
          },
        },
        (res: IncomingMessage) => {
          res.on('data', () => undefined);
          res.on('error', () => undefined);
          const status = res.statusCode ?? null;
          const retryAfter = res.headers['retry-after'];
          const ok = status !== null && status >= 200 && status < 300;
          res.on('end', () =>
            done({ status, retryAfter, error: ok ? null : `the receiver answered ${status}` }),
          );
          res.on('close', () =>
            done({ status, retryAfter, error: ok ? null : `the receiver answered ${status}` }),
          );
        },
      );
      const remaining = Math.max(1, DELIVERY_TIMEOUT_MS - elapsed());
      const timer = setTimeout(() => {
        done({
          status: null,
          retryAfter: undefined,
          error: `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`,
        });
        req.destroy();
      }, remaining);
      req.on('error', (err: NodeJS.ErrnoException) =>
        done({ status: null, retryAfter: undefined, error: connectionError(err) }),
      );
      req.end(body);
    });
  }
}

/** A connection failure in a few words (no addresses or payload in it). */
function connectionError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return err.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(err.message)
        ? 'TLS handshake failed'
        : 'connection failed';
  }
}
