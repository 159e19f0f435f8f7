import type { RouteDefinition } from '../domain/route-definition';
import { merged } from './routes.service';

const stored: RouteDefinition = {
  name: 'Stored',
  conditions: null,
  strategy: 'weighted',
  paused: false,
  userIds: ['a', 'b'],
  teamIds: [],
  weights: { a: 50, b: 50 },
  schedule: null,
  dailyCap: 5,
  reassignAfterMinutes: null,
};

describe('merged (PATCH of a route)', () => {
  it('keeps what is not sent; undefined is not sent, null is', () => {
    expect(merged(stored, { name: undefined, dailyCap: null })).toEqual({ ...stored, dailyCap: null });
  });
  it('replaces the whole pool when userIds or teamIds is sent', () => {
    expect(
      merged({ ...stored, strategy: 'round_robin', weights: null, teamIds: ['t'] }, { userIds: 'c' }),
    ).toMatchObject({
      userIds: 'c',
      teamIds: [],
    });
    expect(merged({ ...stored, strategy: 'round_robin', weights: null }, { teamIds: ['t'] })).toMatchObject({
      userIds: [],
      teamIds: ['t'],
    });
  });
  it('keeps stored weights for the domain to check against a new pool', () => {
    expect(merged(stored, { userIds: ['c'] })).toMatchObject({ userIds: ['c'], weights: { a: 50, b: 50 } });
  });
  it('drops stored weights when the route leaves the weighted strategy', () => {
    expect(merged(stored, { strategy: 'smart' })).toMatchObject({ strategy: 'smart', weights: null });
    expect(merged(stored, { strategy: 'smart', weights: { a: 100 } })).toMatchObject({ weights: { a: 100 } });
  });
});
