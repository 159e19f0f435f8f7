import { parseInvocation } from '../ops-cli';
import { UsageError } from './ops-command';

const ORG = '0190A0A0-0000-7000-8000-000000000000';

describe('search ops commands', () => {
  it('search:reindex takes an organization id', () => {
    expect(parseInvocation(['search:reindex', '--org', ORG, '--json'])).toMatchObject({
      json: true,
      input: { organizationId: ORG.toLowerCase() },
    });
    expect(() => parseInvocation(['search:reindex'])).toThrow(/--org is required/);
    expect(() => parseInvocation(['search:reindex', '--org', 'acme'])).toThrow(/a UUID/);
  });

  it('search:recent-indexes takes no flags', () => {
    expect(parseInvocation(['search:recent-indexes', '--json'])).toMatchObject({ json: true });
    expect(() => parseInvocation(['search:recent-indexes', '--org', ORG])).toThrow(UsageError);
  });

  it('search-rate takes --per-minute N or --reset, not both, not neither', () => {
    expect(parseInvocation(['search-rate', '--org', ORG, '--per-minute', '600'])).toMatchObject({
      input: { organizationId: ORG.toLowerCase(), perMinute: 600 },
    });
    expect(parseInvocation(['search-rate', '--org', ORG, '--reset'])).toMatchObject({
      input: { organizationId: ORG.toLowerCase(), perMinute: null },
    });
    for (const argv of [
      ['search-rate', '--org', ORG],
      ['search-rate', '--org', ORG, '--reset', '--per-minute', '60'],
      ['search-rate', '--org', ORG, '--per-minute', '0'],
      ['search-rate', '--org', ORG, '--per-minute', 'lots'],
      ['search-rate', '--per-minute', '60'],
    ]) {
      expect(() => parseInvocation(argv)).toThrow(UsageError);
    }
  });
});
