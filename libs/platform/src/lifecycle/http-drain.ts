import { Server as NetServer, type Socket } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** What a drain did: requests in flight at the signal, answers sent since, requests cut at the budget. */
export interface DrainReport {
  inFlight: number;
  answered: number;
  cut: number;
}

/**
 * After the signal the server still accepts for this long: a connection the kernel took before
 * the signal (the accept backlog) is served, not reset (docs/operations/health-and-shutdown.md).
 */
export const DRAIN_ACCEPT_MS = 500;

/**
 * A keep-alive connection with no request on it is closed once it has been quiet this long: a
 * request its client wrote just before is read and answered instead of being reset.
 */
export const DRAIN_QUIET_MS = 250;

/** How often the drain looks at its connections. */
const SWEEP_MS = 25;

interface Connection {
  /** Requests on it not answered yet (pipelined requests count one each). */
  open: number;
  /** When it last read a byte or sent an answer (performance.now()). */
  activeAt: number;
  bytesRead: number;
}

/**
 * The HTTP half of a graceful stop (docs/operations/health-and-shutdown.md). Every connection is
 * known from its accept, every request from its headers (a body may still be on its way). Once
 * draining: every answer carries `Connection: close`; the server still accepts for
 * `DRAIN_ACCEPT_MS`, then stops listening; a connection closes after its last answer, or once it
 * has been quiet for `DRAIN_QUIET_MS` with nothing in flight. Node's `server.close()` alone resets
 * the accept backlog and closes idle keep-alive connections at once, under a request on its way.
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
  private readonly connections = new Map<Socket, Connection>();
  private watched?: Server;
  private draining = false;
  private answered = 0;

  /** Knows every connection of `server` from its accept (call before it listens). */
  watch(server: Server): void {
    if (this.watched === server) return;
    this.watched = server;
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { open: 0, activeAt: performance.now(), bytesRead: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
  }

  /** The first middleware of the app. */
  readonly track = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    this.open.add(res);
    const connection = this.connections.get(req.socket);
    if (connection) connection.open += 1;
    res.once('close', () => {
      this.open.delete(res);
      if (connection) {
        connection.open -= 1;
        connection.activeAt = performance.now();
      }
    });
    if (this.draining) this.lastOnItsConnection(res);
    next();
  };

  get inFlight(): number {
    return this.open.size;
  }

  /**
   * Answers what is in flight and what arrives during the accept window, then closes every
   * connection; past `budgetMs` the connections still open are cut.
   */
  async drain(server: Server, budgetMs: number): Promise<DrainReport> {
    const inFlight = this.open.size;
    this.draining = true;
    for (const res of this.open) this.lastOnItsConnection(res);
    const started = performance.now();
    let listening = server.listening;
    // net's close: stops listening without Node's http close, which also closes idle connections
    const closed = new Promise<void>((resolve) =>
      server.listening ? server.once('close', () => resolve()) : resolve(),
    );
    const done = await new Promise<boolean>((resolve) => {
      const sweep = setInterval(() => {
        const now = performance.now();
        if (listening && now - started >= DRAIN_ACCEPT_MS) {
          listening = false;
          NetServer.prototype.close.call(server);
        }
        for (const [socket, connection] of this.connections) this.closeIfQuiet(socket, connection, now);
        if (!listening && this.connections.size === 0) {
          clearInterval(sweep);
          resolve(true);
        } else if (now - started >= budgetMs) {
          clearInterval(sweep);
          resolve(false);
        }
      }, SWEEP_MS);
    });
    const cut = done ? 0 : this.open.size;
    if (!done) {
      if (listening) NetServer.prototype.close.call(server);
      for (const socket of this.connections.keys()) socket.destroy();
    }
    await closed;
    return { inFlight, answered: this.answered, cut };
  }

  private closeIfQuiet(socket: Socket, connection: Connection, now: number): void {
    if (socket.bytesRead !== connection.bytesRead) {
      connection.bytesRead = socket.bytesRead;
      connection.activeAt = now;
    }
    if (connection.open === 0 && now - connection.activeAt >= DRAIN_QUIET_MS) socket.destroy();
  }

  private lastOnItsConnection(res: ServerResponse): void {
    // an answer already under way ends on a keep-alive connection, which then closes when quiet
    if (!res.headersSent) res.setHeader('Connection', 'close');
    res.once('finish', () => this.answered++);
  }
}
