import { parseAllowedOrigin } from './allowed-origin';

describe('parseAllowedOrigin', () => {
  it.each([
    ['https://www.agency.example', 'https://www.agency.example'],
    ['https://agency.example:8443', 'https://agency.example:8443'],
    ['HTTPS://Agency.Example/', 'https://agency.example'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ])('takes %s as %s', (value, origin) => {
    expect(parseAllowedOrigin(value)).toBe(origin);
  });

  it.each([
    'http://agency.example', // plain http only for localhost
    'https://agency.example/listings', // no path
    'https://*.agency.example', // no wildcard
    'https://agency.example?x=1',
    'https://user@agency.example',
    'ftp://agency.example',
    'agency.example',
    '',
  ])('refuses %s', (value) => {
    expect(parseAllowedOrigin(value)).toBeNull();
  });
});
