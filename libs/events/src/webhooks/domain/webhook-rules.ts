import { createHmac, randomBytes } from 'node:crypto';
import { EVENT_TYPES, HOUR, MINUTE, type EventType } from '@app/platform';

/** What an organization may hold and the answer lists (INTERFACES.md "Webhook endpoints"). */
export const WEBHOOK_LIMITS = {
  endpointsPerOrganization: 10,
  description: 255,
  url: 2048,
  events: 50,
  deliveriesPageMax: 100,
  deliveriesPageDefault: 20,
  /** Deliveries (and what the deliveries route shows) are kept this long. */
  retentionDays: 30,
} as const;

export type EndpointStatus = 'enabled' | 'disabled';
/** `failing`: no success for 3 days; `gone`: the receiver answered 410; `manual`: PATCH `enabled: false`. */
export type DisabledReason = 'failing' | 'gone' | 'manual';
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** Waits before the 2nd … 10th attempt (Stripe/Svix-like, about 3 days in all); then `failed`. */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
  20 * HOUR,
  24 * HOUR,
] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** No success for this long (since the first failure after the last success) disables the endpoint. */
export const FAILING_DISABLES_AFTER_MS = 72 * HOUR;
/** One attempt's HTTP budget (resolving, connecting, the answer). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** A claimed attempt holds its delivery this long: a process that dies mid-attempt leaves it due again after. */
export const CLAIM_LEASE_MS = 15_000;
/** A `Retry-After` is honoured up to this (a longer one waits this much). */
export const RETRY_AFTER_CAP_MS = 24 * HOUR;
/** Both secrets sign for this long after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * HOUR;

/** The kinds of the catalogue (`lead` of `lead.created`), each subscribable as `<kind>.*`. */
export const EVENT_KINDS = [
  ...new Set(EVENT_TYPES.filter((t) => t.includes('.')).map((t) => t.split('.')[0])),
];

/** Is `pattern` a catalogued type, `<kind>.*` or `*`? */
export const isEventPattern = (pattern: string): boolean =>
  pattern === '*' ||
  (EVENT_TYPES as readonly string[]).includes(pattern) ||
  (pattern.endsWith('.*') && EVENT_KINDS.includes(pattern.slice(0, -2)));

/** Does an endpoint subscribed to `patterns` take an event of `type`? */
export const matchesEvent = (patterns: readonly string[], type: EventType | string): boolean =>
  patterns.some((p) => p === '*' || p === type || (p.endsWith('.*') && type.startsWith(p.slice(0, -1))));

/** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, the key being the bytes after `whsec_`. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three Standard Webhooks headers of one attempt: two signatures while a rotation overlaps. */
export function signedHeaders(
  secrets: string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => signature(s, id, timestampSeconds, body)).join(' '),
  };
}

/**
 * When the attempt after `attempt` (1-based, the one that just failed) is due, or null when it was
 * the last. A `Retry-After` longer than the schedule's wait wins (capped at a day).
 */
export function nextAttemptAt(attempt: number, now: Date, retryAfterMs: number | null): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  const wait = RETRY_SCHEDULE_MS[Math.max(0, attempt - 1)];
  const honoured = retryAfterMs !== null ? Math.min(retryAfterMs, RETRY_AFTER_CAP_MS) : 0;
  return new Date(now.getTime() + Math.max(wait, honoured));
}

/** `Retry-After` as milliseconds from `now` (seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | null {
  if (!header) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The URL rules that need no DNS: `https://`, or `http://` to localhost when `allowInsecure`; no
 * credentials in it. Answers the problem as a sentence, or null.
 */
export function urlProblem(raw: string, allowInsecure: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute https URL';
  }
  if (url.username || url.password) return 'url must not carry credentials';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') {
    if (!allowInsecure) return 'url must use https';
    return LOCAL_HOSTS.has(url.hostname) ? null : 'url may use http only to localhost';
  }
  return 'url must use https';
}
