import { Webhook } from 'standardwebhooks';
import {
  isEventPattern,
  matchesEvent,
  MAX_ATTEMPTS,
  newWebhookSecret,
  nextAttemptAt,
  retryAfterMs,
  RETRY_SCHEDULE_MS,
  signedHeaders,
  urlProblem,
} from './webhook-rules';

describe('webhook rules', () => {
  const now = new Date('2026-11-24T12:00:00.000Z');

  it('signs as Standard Webhooks: the standardwebhooks package verifies each secret of a rotation', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    expect(current).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({ id: 'evt_1', type: 'lead.created' });
    const ts = Math.floor(Date.now() / 1000);
    const headers = signedHeaders([current, previous], 'evt_1', ts, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 20 h, 24 h, then gives up', () => {
    const waits = RETRY_SCHEDULE_MS.map((_, i) => nextAttemptAt(i + 1, now, null)!.getTime() - now.getTime());
    expect(waits.map((ms) => ms / 1000)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000, 72000, 86400]);
    expect(nextAttemptAt(MAX_ATTEMPTS, now, null)).toBeNull();
    expect(nextAttemptAt(1, now, 60_000)!.getTime() - now.getTime()).toBe(60_000); // longer Retry-After
    expect(nextAttemptAt(2, now, 60_000)!.getTime() - now.getTime()).toBe(300_000); // shorter: the schedule
    expect(nextAttemptAt(1, now, 10 * 86_400_000)!.getTime() - now.getTime()).toBe(86_400_000); // capped
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Tue, 24 Nov 2026 13:00:00 GMT', now)).toBe(3_600_000);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(undefined, now)).toBeNull();
  });

  it('matches types, <kind>.* and *', () => {
    expect(matchesEvent(['lead.created'], 'lead.created')).toBe(true);
    expect(matchesEvent(['lead.created'], 'lead.updated')).toBe(false);
    expect(matchesEvent(['lead.*'], 'lead.status_changed')).toBe(true);
    expect(matchesEvent(['lead.*'], 'deal.created')).toBe(false);
    expect(matchesEvent(['*'], 'webhook_endpoint.disabled')).toBe(true);
    expect(isEventPattern('webhook_endpoint.*')).toBe(true);
    expect(isEventPattern('lead.nope')).toBe(false);
    expect(isEventPattern('nope.*')).toBe(false);
    expect(isEventPattern('ping.*')).toBe(false);
  });

  it('takes https; http only to localhost when allowed; no credentials', () => {
    expect(urlProblem('https://example.com/hook', false)).toBeNull();
    expect(urlProblem('http://example.com/hook', false)).toMatch(/https/);
    expect(urlProblem('http://localhost:3000/hook', false)).toMatch(/https/);
    expect(urlProblem('http://localhost:3000/hook', true)).toBeNull();
    expect(urlProblem('http://127.0.0.1:3000/hook', true)).toBeNull();
    expect(urlProblem('http://example.com/hook', true)).toMatch(/localhost/);
    expect(urlProblem('https://u:p@example.com/', false)).toMatch(/credentials/);
    expect(urlProblem('ftp://example.com/', true)).toMatch(/https/);
    expect(urlProblem('example.com', false)).toMatch(/absolute/);
  });
});
