import { request, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { isLocalName, isPrivateAddress, legacyIpv4 } from './address-rules';
import {
  OutboundConnector,
  OutboundResolver,
  type ConnectTarget,
  type ResolvedAddress,
} from './outbound-ports';

/** What the guard's own rules refused (the far side was never asked). */
export type OutboundRefusal =
  | 'invalid URL'
  | 'scheme not allowed'
  | 'credentials not allowed'
  | 'address not allowed'
  | 'too many redirects';
/** What went wrong on the way; never the far side's words, banner or port state. */
export type OutboundFailure =
  'could not resolve the host' | 'could not connect' | 'connection lost' | 'timed out' | 'too large';

const REFUSALS: ReadonlySet<string> = new Set<OutboundRefusal>([
  'invalid URL',
  'scheme not allowed',
  'credentials not allowed',
  'address not allowed',
  'too many redirects',
]);

/** An outbound request refused or failed; `message` is the reason, safe to show the caller. */
export class OutboundError extends Error {
  constructor(readonly reason: OutboundRefusal | OutboundFailure) {
    super(reason);
    this.name = 'OutboundError';
  }

  /** Refused by the guard's rules, rather than failed on the network. */
  get refused(): boolean {
    return REFUSALS.has(this.reason);
  }
}

export interface OutboundOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The whole exchange: resolving, connecting, every redirect and the answer's body. */
  timeoutMs: number;
  /** The answer's body at most (its Content-Length, then the bytes read). */
  maxBytes: number;
  /** Redirects followed, each one checked as the first URL was (at most 3); 0: a 3xx is the answer. */
  maxRedirects: number;
}

export interface OutboundAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as it arrives, within the size and time caps; read it once, or `discard()`. */
  body(): AsyncIterable<Buffer>;
  /** Closes the connection, the body unread. */
  discard(): void;
}

export const MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The one way the server makes an HTTP request (docs/security/outbound-requests.md): http(s) only,
 * no credentials in the URL, the host resolved once and every address it resolves to checked
 * (`isPrivateAddress`), the connection made to the checked address, each redirect checked again,
 * a time and a size cap. `OUTBOUND_ALLOW_PRIVATE` (tests only) lifts the address rule alone.
 */
@Injectable()
export class OutboundHttp {
  private readonly allowPrivate: boolean;

  constructor(
    private readonly resolver: OutboundResolver,
    private readonly connector: OutboundConnector,
    config: AppConfig,
  ) {
    this.allowPrivate = config.outboundAllowPrivate;
  }

  /** The checks a request to `rawUrl` would meet now, without connecting (a URL given to a route). */
  async check(rawUrl: string, timeoutMs: number): Promise<void> {
    await this.target(parseUrl(rawUrl), Date.now() + timeoutMs);
  }

  /** Sends the request; answers at the first non-redirect answer's headers. Throws OutboundError. */
  async request(rawUrl: string, options: OutboundOptions): Promise<OutboundAnswer> {
    const maxRedirects = Math.max(0, Math.min(options.maxRedirects, MAX_REDIRECTS));
    const deadline = Date.now() + options.timeoutMs;
    let url = parseUrl(rawUrl);
    let method = options.method ?? 'GET';
    let body = options.body;
    for (let redirects = 0; ; redirects += 1) {
      const target = await this.target(url, deadline);
      const exchange = await send(this.connector, url, target, { ...options, method, body }, deadline);
      const { statusCode: status = 0, headers } = exchange.res;
      if (maxRedirects === 0 || !REDIRECT_STATUSES.has(status) || !headers.location) {
        return exchange.answer(options.maxBytes);
      }
      exchange.close();
      if (redirects === maxRedirects) throw new OutboundError('too many redirects');
      url = parseUrl(headers.location, url);
      if (status === 303 || (method === 'POST' && (status === 301 || status === 302))) {
        method = 'GET';
        body = undefined;
      }
    }
  }

  /** Where a request to `url` may connect: refused unless every address of its host is allowed. */
  private async target(url: URL, deadline: number): Promise<ConnectTarget> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const literal = isIP(host) ? host : legacyIpv4(host);
    let addresses: ResolvedAddress[];
    if (literal !== null) addresses = [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }];
    else {
      if (!this.allowPrivate && isLocalName(host)) throw new OutboundError('address not allowed');
      addresses = await this.resolve(host, deadline);
    }
    if (!this.allowPrivate && addresses.some((a) => isPrivateAddress(a.address))) {
      throw new OutboundError('address not allowed');
    }
    const https = url.protocol === 'https:';
    return {
      address: addresses[0].address,
      family: addresses[0].family,
      port: url.port === '' ? (https ? 443 : 80) : Number(url.port),
      tls: https ? { servername: literal !== null ? null : host.replace(/\.$/, '') } : null,
    };
  }

  private async resolve(host: string, deadline: number): Promise<ResolvedAddress[]> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new OutboundError('timed out')), Math.max(0, deadline - Date.now()));
    });
    try {
      const found = await Promise.race([
        this.resolver.resolve(host).catch(() => {
          throw new OutboundError('could not resolve the host');
        }),
        late,
      ]);
      if (found.length === 0 || found.some((a) => isIP(a.address) === 0)) {
        throw new OutboundError('could not resolve the host');
      }
      return found;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** An http(s) URL without credentials, or OutboundError (a redirect's `Location` against its base). */
function parseUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new OutboundError('invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError('scheme not allowed');
  if (url.username || url.password) throw new OutboundError('credentials not allowed');
  if (!url.hostname || url.port === '0') throw new OutboundError('invalid URL');
  return url;
}

/** One request on its own connection to `target`; resolves at the answer's headers. */
function send(
  connector: OutboundConnector,
  url: URL,
  target: ConnectTarget,
  options: OutboundOptions,
  deadline: number,
): Promise<Exchange> {
  return new Promise<Exchange>((resolve, reject) => {
    let timedOut = false;
    let answered: IncomingMessage | null = null;
    const headers: Record<string, string | number> = { 'user-agent': 'estate-agency/1', ...options.headers };
    if (options.body !== undefined) headers['content-length'] = Buffer.byteLength(options.body);
    headers.host = url.host;
    let req: ClientRequest;
    let socket: Socket | undefined;
    try {
      req = request({
        method: options.method,
        path: `${url.pathname}${url.search}`,
        headers,
        // no agent: this connection only, to the checked address, closed after the answer
        createConnection: () => (socket = connector.connect(target)),
      });
    } catch {
      return reject(new OutboundError('could not connect'));
    }
    const timer = setTimeout(
      () => {
        timedOut = true;
        const err = new OutboundError('timed out');
        answered?.destroy(err);
        req.destroy(err);
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('error', () => {
      clearTimeout(timer);
      socket?.destroy(); // a parse error (no HTTP on that port) leaves it open
      reject(new OutboundError(timedOut ? 'timed out' : 'could not connect'));
    });
    req.on('response', (res: IncomingMessage) => {
      answered = res;
      resolve(new Exchange(req, res, timer, () => timedOut));
    });
    req.end(options.body);
  });
}

/** An answer being read: its timer runs until the body is read or dropped. */
class Exchange {
  constructor(
    private readonly req: ClientRequest,
    readonly res: IncomingMessage,
    private readonly timer: NodeJS.Timeout,
    private readonly timedOut: () => boolean,
  ) {
    res.on('error', () => undefined);
  }

  close(): void {
    clearTimeout(this.timer);
    this.res.destroy();
    this.req.destroy();
  }

  answer(maxBytes: number): OutboundAnswer {
    return {
      status: this.res.statusCode ?? 0,
      headers: this.res.headers,
      body: () => this.read(maxBytes),
      discard: () => this.close(),
    };
  }

  private async *read(maxBytes: number): AsyncGenerator<Buffer> {
    try {
      const declared = Number(this.res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) throw new OutboundError('too large');
      let bytes = 0;
      for await (const chunk of this.res as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > maxBytes) throw new OutboundError('too large');
        yield chunk;
      }
    } catch (err) {
      if (this.timedOut()) throw new OutboundError('timed out');
      if (err instanceof OutboundError) throw err;
      throw new OutboundError('connection lost');
    } finally {
      this.close();
    }
  }
}
