import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** What a drain did: requests in flight at the signal, answers sent since, requests cut at the budget. */
export interface DrainReport {
  inFlight: number;
  answered: number;
  cut: number;
}

/** How often idle keep-alive connections are closed while draining (one answered goes idle). */
const SWEEP_MS = 50;

/**
 * The HTTP half of a graceful stop. Counts the requests in flight from the moment their headers
 * arrive (a body may still be on its way); once draining, the server accepts no connection,
 * every answer carries `Connection: close`, and a keep-alive connection closes as soon as it is
 * idle, so the server ends with the last answer. Node's `server.close()` alone leaves busy
 * keep-alive connections served for as long as clients keep sending.
 */
export class HttpDrain {
  private static readonly byApp = new WeakMap<object, HttpDrain>();

  /** The drain of one Nest application (`configureHttpApp` installs its middleware). */
  static of(app: object): HttpDrain {
    let drain = HttpDrain.byApp.get(app);
    if (!drain) {
      drain = new HttpDrain();
      HttpDrain.byApp.set(app, drain);
    }
    return drain;
  }

  private readonly open = new Set<ServerResponse>();
  private draining = false;
  private answered = 0;

  /** The first middleware of the app. */
  readonly track = (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
    if (this.draining) this.lastOnItsConnection(res);
    next();
  };

  get inFlight(): number {
    return this.open.size;
  }

  /**
   * Stops accepting, answers what is in flight and closes every connection; past `budgetMs` the
   * connections still open are cut.
   */
  async drain(server: Server, budgetMs: number): Promise<DrainReport> {
    const inFlight = this.open.size;
    this.draining = true;
    for (const res of this.open) this.lastOnItsConnection(res);
    // stops listening and closes the idle connections (Node 19+); resolves once none is left
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
    let budget: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => (budget = setTimeout(() => resolve(true), budgetMs))),
    ]);
    clearInterval(sweep);
    clearTimeout(budget);
    const cut = timedOut ? this.open.size : 0;
    if (timedOut) {
      server.closeAllConnections();
      await closed;
    }
    return { inFlight, answered: this.answered, cut };
  }

  private lastOnItsConnection(res: ServerResponse): void {
    // an answer already under way ends on a keep-alive connection, which the sweep then closes
    if (!res.headersSent) res.setHeader('Connection', 'close');
    res.once('finish', () => this.answered++);
  }
}
