import { lookup } from 'node:dns/promises';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Injectable } from '@nestjs/common';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * DNS for outbound hosts: one getaddrinfo per request hop, every answer (IPv4 first). A port: tests
 * replace it to play a host that resolves inside or changes its answer. Never given an IP literal.
 */
@Injectable()
export class OutboundResolver {
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const found = await lookup(hostname, { all: true, verbatim: false });
    return found.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  }
}

/** Where one connection goes: the address the guard checked, and the name TLS verifies. */
export interface ConnectTarget {
  address: string;
  family: 4 | 6;
  port: number;
  /** Set for https: the host name for SNI and the certificate check (null for an IP literal). */
  tls: { servername: string | null } | null;
}

/**
 * Opens the socket of one request to an address already checked: a plain TCP or TLS connection
 * to that IP (no lookup, so nothing a DNS answer changes in between). A port: tests route their
 * public-looking addresses to a local server.
 */
@Injectable()
export class OutboundConnector {
  connect(target: ConnectTarget): Socket {
    if (!target.tls) return tcpConnect({ host: target.address, port: target.port, family: target.family });
    return tlsConnect({
      host: target.address,
      port: target.port,
      // the certificate is checked against this name (against the IP when there is none)
      servername: target.tls.servername ?? undefined,
      ALPNProtocols: ['http/1.1'],
    });
  }
}
