import { isLocalName, isPrivateAddress, legacyIpv4 } from './address-rules';

describe('outbound address rules', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254', // cloud metadata
    '169.254.0.1',
    '100.64.0.1', // CGNAT
    '100.127.255.255',
    '0.0.0.0',
    '0.1.2.3',
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1', // multicast
    '239.255.255.250',
    '240.0.0.1', // reserved
    '255.255.255.255',
    '::1',
    '::',
    '::7f00:1', // IPv4-compatible
    'fd00:ec2::254', // AWS metadata over IPv6
    'fc00::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '2001::1', // Teredo
    '64:ff9b:1::1',
    '100::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:7F00:0001',
    '0:0:0:0:0:ffff:7f00:1',
    '::ffff:a9fe:a9fe', // mapped metadata
    '::ffff:10.1.2.3',
    '::ffff:0:7f00:1', // SIIT
    '64:ff9b::10.0.0.1', // NAT64
    '64:ff9b::7f00:1',
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2002:c0a8:101::', // 6to4 of 192.168.1.1
    'not an address',
    '',
    'localhost',
  ])('%s is not public', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '169.255.0.1',
    '192.169.0.1',
    '223.255.255.255',
    '2606:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0X7F000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0177.0.0.01', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['0', '0.0.0.0'],
    ['0x0', '0.0.0.0'],
    ['127.0.0.1.', '127.0.0.1'],
    ['169.254.43518', '169.254.169.254'],
    ['0xa9fea9fe', '169.254.169.254'],
    ['3232235777', '192.168.1.1'],
  ])('reads the numeric spelling %s as %s', (spelling, dotted) => {
    expect(legacyIpv4(spelling)).toBe(dotted);
    expect(isPrivateAddress(legacyIpv4(spelling)!)).toBe(true);
  });

  it.each(['example.com', '4294967296', '256.0.0.1', '1.2.3.4.5', '08.0.0.1', '1..1', 'cafe', '0xg1', ''])(
    '%s is no IPv4 spelling',
    (host) => {
      expect(legacyIpv4(host)).toBeNull();
    },
  );

  it('knows localhost and its subdomains by name', () => {
    for (const name of ['localhost', 'LOCALHOST', 'localhost.', 'foo.localhost', 'a.b.localhost.'])
      expect([name, isLocalName(name)]).toEqual([name, true]);
    for (const name of ['localhost.example.com', 'notlocalhost', 'example.com'])
      expect([name, isLocalName(name)]).toEqual([name, false]);
  });
});
