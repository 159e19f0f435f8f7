import { createServer, Server, Socket, connect } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that reads the client's protocol messages and can drop the
 * connection at an exact step of a transaction: before a statement reaches the server, after the
 * server answered it, or with a COMMIT delivered whose answer never comes back. What the API sees
 * is what a network fault or a crashed server would show it.
 */
export type FailAction =
  /** The statement never reaches the server; both sides are closed. */
  | 'drop-before'
  /** The statement runs and its answer reaches the client; then both sides are closed. */
  | 'drop-after-answer'
  /** The statement reaches the server, which runs it; the client never gets the answer. */
  | 'drop-answer'
  /** The statement runs; its answer (and all that follows) reaches the client only after `holdMs`: a server that froze. */
  | 'hold-answer';

export interface Failpoint {
  /** A statement earlier on the same connection (the transaction's own), if any. */
  after?: RegExp;
  /** The statement to fail at. */
  at: RegExp;
  action: FailAction;
  /** For 'hold-answer'. */
  holdMs?: number;
}

/** The SQL text of a simple query ('Q') or a parse ('P') message, else null. */
function statementOf(type: number, payload: Buffer): string | null {
  if (type === 0x51) return payload.toString('utf8', 0, payload.length - 1);
  if (type === 0x50) {
    const nameEnd = payload.indexOf(0);
    return payload.toString('utf8', nameEnd + 1, payload.indexOf(0, nameEnd + 1));
  }
  return null;
}

export class PgFailpointProxy {
  private armed: Failpoint | null = null;
  private fired = false;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<PgFailpointProxy> {
    const holder: { proxy?: PgFailpointProxy } = {};
    const server = createServer((client) => holder.proxy?.relay(client, target));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    holder.proxy = new PgFailpointProxy(server, (server.address() as { port: number }).port);
    return holder.proxy;
  }

  /** `url` with its host and port pointed at the proxy. */
  urlFor(url: string): string {
    const proxied = new URL(url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(this.port);
    return proxied.toString();
  }

  /** Fails the next statement matching `failpoint` (once). */
  arm(failpoint: Failpoint): void {
    this.armed = failpoint;
    this.fired = false;
  }

  /** Whether the armed failpoint was hit. */
  get hit(): boolean {
    return this.fired;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((done) => this.server.close(done));
  }

  private relay(client: Socket, target: { host: string; port: number }): void {
    const server = connect(target.port, target.host);
    for (const socket of [client, server]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    const closeBoth = () => {
      client.destroy();
      server.destroy();
    };
    let dropNextAnswer = false;
    let closeAfterAnswer = false;
    // with an answer to drop, the server side stays until it has answered (it runs the statement)
    client.on('close', () => {
      if (!dropNextAnswer) server.destroy();
    });
    server.on('close', () => client.destroy());
    let heldUntil = 0;
    let held: Buffer[] = [];
    server.on('data', (chunk: Buffer) => {
      if (dropNextAnswer) {
        server.end(); // the server ran it; the client never learns how it went
        return;
      }
      if (Date.now() < heldUntil) {
        held.push(chunk);
        return;
      }
      client.write(chunk);
      if (closeAfterAnswer) setImmediate(closeBoth);
    });

    let pending = Buffer.alloc(0);
    let started = false;
    let seenAfter = false;
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          // the startup message has no type byte
          if (pending.length < 4) return;
          const length = pending.readInt32BE(0);
          if (pending.length < length) return;
          server.write(pending.subarray(0, length));
          pending = pending.subarray(length);
          started = true;
          continue;
        }
        if (pending.length < 5) return;
        const length = pending.readInt32BE(1);
        if (pending.length < length + 1) return;
        const message = pending.subarray(0, length + 1);
        pending = pending.subarray(length + 1);
        const sql = statementOf(message[0], message.subarray(5));
        const failpoint = this.armed;
        if (sql !== null && failpoint && !this.fired) {
          if (failpoint.after?.test(sql)) seenAfter = true;
          if (failpoint.at.test(sql) && (!failpoint.after || seenAfter)) {
            this.fired = true;
            this.armed = null;
            if (failpoint.action === 'drop-before') {
              closeBoth();
              return;
            }
            if (failpoint.action === 'drop-answer') {
              dropNextAnswer = true;
              server.write(message);
              client.destroy();
              return;
            }
            if (failpoint.action === 'hold-answer') {
              heldUntil = Date.now() + (failpoint.holdMs ?? 4_000);
              setTimeout(() => {
                for (const chunk of held) client.write(chunk);
                held = [];
              }, failpoint.holdMs ?? 4_000);
            } else {
              closeAfterAnswer = true;
            }
          }
        }
        server.write(message);
      }
    });
  }
}
