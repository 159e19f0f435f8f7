/**
 * The SQL of the records connectors push (calls, chat messages, emails) and of the lead facts, as
 * pure functions: the services run them as prepared statements and the benchmark's baseline server
 * runs the very same text (bench/ingest).
 *
 * An upsert is one `INSERT … ON CONFLICT (organization_id, connector, external_id) DO UPDATE`:
 * the first write inserts (`created` true: the returned id is the one offered), later writes
 * replace the mutable fields. The update's WHERE keeps a record on its lead and its direction: a
 * write that would move it returns no row, which the service answers 409 CONFLICT. Parallel
 * identical writes queue on the unique index and make one record.
 */

import type { Statement } from '../domain/lead-reach';
import { RECORD_LIMITS } from '../domain/records';

export interface RecordKey {
  organizationId: string;
  connector: string;
  externalId: string;
}

/** What every upsert writes besides its own fields. */
interface RecordWrite extends RecordKey {
  /** A fresh id, used when the record is new. */
  id: string;
  leadId: number;
  actor: string;
  now: Date;
}

/** A person of the organization named by id or email; null when neither names a member. */
const memberSql = `(select m.user_id from memberships m join users u on u.id = m.user_id
                     where m.organization_id = ? and (m.user_id = ?::uuid or lower(u.email) = lower(?::text))
                     limit 1)`;

export interface CallWrite extends RecordWrite {
  ownerUserId: string | null;
  ownerEmail: string | null;
  direction: string;
  status: string;
  outcome: string | null;
  endedReason: string | null;
  durationSeconds: number;
  hasRecording: boolean;
  startedAt: Date;
  endedAt: Date | null;
}

/** A call's row after its transcript or analysis was replaced: its `/v1` view columns and version. */
export interface CallPartRow {
  id: string;
  lead_id: string;
  started_at: Date | string;
  version: number;
}

/**
 * Rows of an upsert: none when the record exists on another lead or with another direction. The
 * record's `/v1` view columns come with it (its event's object) and its `version`.
 */
export interface UpsertRow {
  id: string;
  lead_id: string;
  created: boolean;
  version: number;
}

export function callUpsertStatement(w: CallWrite): Statement {
  return {
    sql: `insert into calls as c (id, organization_id, lead_id, connector, external_id, owner_id, direction, status,
                                  outcome, ended_reason, duration_seconds, has_recording, started_at, ended_at,
                                  actor, created_at, updated_at)
          values (?::uuid, ?, ?, ?, ?, ${memberSql}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          on conflict (organization_id, connector, external_id) do update
             set owner_id = excluded.owner_id, status = excluded.status, outcome = excluded.outcome,
                 ended_reason = excluded.ended_reason, duration_seconds = excluded.duration_seconds,
                 has_recording = excluded.has_recording, started_at = excluded.started_at,
                 ended_at = excluded.ended_at, updated_at = excluded.updated_at, version = c.version + 1
           where c.lead_id = excluded.lead_id and c.direction = excluded.direction
          returning ${CALL_COLUMNS}, c.version, c.id = ?::uuid as created`,
    params: [
      w.id,
      w.organizationId,
      w.leadId,
      w.connector,
      w.externalId,
      w.organizationId,
      w.ownerUserId,
      w.ownerEmail,
      w.direction,
      w.status,
      w.outcome,
      w.endedReason,
      w.durationSeconds,
      w.hasRecording,
      w.startedAt,
      w.endedAt,
      w.actor,
      w.now,
      w.now,
      w.id,
    ],
  };
}

export interface MessageWrite extends RecordWrite {
  channel: string;
  kind: string;
  direction: string;
  status: string;
  at: Date;
  body: string;
  fileNames: string[];
  sentByUserId: string | null;
  sentByEmail: string | null;
}

export function messageUpsertStatement(w: MessageWrite): Statement {
  return {
    sql: `insert into chat_messages as c (id, organization_id, lead_id, connector, external_id, channel, kind,
                                          direction, status, at, body, files, sent_by, actor, created_at, updated_at)
          values (?::uuid, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ${memberSql}, ?, ?, ?)
          on conflict (organization_id, connector, external_id) do update
             set channel = excluded.channel, kind = excluded.kind, status = excluded.status, at = excluded.at,
                 body = excluded.body, files = excluded.files, sent_by = excluded.sent_by,
                 updated_at = excluded.updated_at, version = c.version + 1
           where c.lead_id = excluded.lead_id and c.direction = excluded.direction
          returning c.lead_id, ${MESSAGE_COLUMNS('c')}, c.version, c.id = ?::uuid as created`,
    params: [
      w.id,
      w.organizationId,
      w.leadId,
      w.connector,
      w.externalId,
      w.channel,
      w.kind,
      w.direction,
      w.status,
      w.at,
      w.body,
      JSON.stringify(w.fileNames),
      w.organizationId,
      w.sentByUserId,
      w.sentByEmail,
      w.actor,
      w.now,
      w.now,
      w.id,
    ],
  };
}

export interface EmailWrite extends RecordWrite {
  source: string;
  captureDirection: string | null;
  subject: string;
  status: string;
  fromAddress: string;
  recipientEmail: string;
  bodyText: string;
  sentAt: Date | null;
  messageAt: Date;
  capturedAt: Date | null;
}

/** An email's direction in SQL, as `emailDirection` (domain/records.ts) says. */
const emailDirectionSql = (alias: string) =>
  `(case when ${alias}.source = 'captured' then ${alias}.capture_direction else 'outbound' end)`;

export function emailUpsertStatement(w: EmailWrite): Statement {
  return {
    sql: `insert into emails as c (id, organization_id, lead_id, connector, external_id, source, capture_direction,
                                   subject, status, from_address, recipient_email, body_text, sent_at, message_at,
                                   captured_at, actor, created_at, updated_at)
          values (?::uuid, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          on conflict (organization_id, connector, external_id) do update
             set source = excluded.source, capture_direction = excluded.capture_direction,
                 subject = excluded.subject, status = excluded.status, from_address = excluded.from_address,
                 recipient_email = excluded.recipient_email, body_text = excluded.body_text,
                 sent_at = excluded.sent_at, message_at = excluded.message_at,
                 captured_at = excluded.captured_at, updated_at = excluded.updated_at, version = c.version + 1
           where c.lead_id = excluded.lead_id and ${emailDirectionSql('c')} = ${emailDirectionSql('excluded')}
          returning c.lead_id, ${EMAIL_COLUMNS('c')}, c.version, c.id = ?::uuid as created`,
    params: [
      w.id,
      w.organizationId,
      w.leadId,
      w.connector,
      w.externalId,
      w.source,
      w.captureDirection,
      w.subject,
      w.status,
      w.fromAddress,
      w.recipientEmail,
      w.bodyText,
      w.sentAt,
      w.messageAt,
      w.capturedAt,
      w.actor,
      w.now,
      w.now,
      w.id,
    ],
  };
}

/**
 * A call's transcript (replaced whole); its id, lead and start (its search passages' date), or no
 * row before the call exists.
 */
export function transcriptStatement(
  key: RecordKey,
  transcript: { transcript: string; detectedLanguage: string },
  now: Date,
): Statement {
  return {
    sql: `update calls as c set transcript = ?, detected_language = ?, transcript_at = ?, updated_at = ?,
                 version = c.version + 1
           where c.organization_id = ? and c.connector = ? and c.external_id = ?
          returning ${CALL_COLUMNS}, c.version`,
    params: [
      transcript.transcript,
      transcript.detectedLanguage,
      now,
      now,
      key.organizationId,
      key.connector,
      key.externalId,
    ],
  };
}

/**
 * A call's analysis (replaced whole); its id, lead and start (its search passages' date), or no row
 * before the call exists.
 */
export function analysisStatement(key: RecordKey, analysis: object, now: Date): Statement {
  return {
    sql: `update calls as c set analysis = ?::jsonb, analysis_at = ?, updated_at = ?, version = c.version + 1
           where c.organization_id = ? and c.connector = ? and c.external_id = ?
          returning ${CALL_COLUMNS}, c.version`,
    params: [JSON.stringify(analysis), now, now, key.organizationId, key.connector, key.externalId],
  };
}

/**
 * Holds the lead's row until the transaction ends, so the writes of one lead's facts queue: each
 * recomputation runs after every earlier write of that lead has committed, and sees it.
 */
export function lockLeadStatement(organizationId: string, leadId: number): Statement {
  return {
    sql: 'select id from leads where organization_id = ? and id = ? for no key update',
    params: [organizationId, leadId],
  };
}

/**
 * The lead facts (INTERFACES.md "Timeline and facts") of one lead, or of every lead of the
 * organization (`leadId` null: `facts:rebuild`), recomputed from the stored rows in one statement,
 * so the order records arrived in never matters. Ties on `startedAt` go to the larger connector
 * id, never to arrival order. A lead whose `totalCalls` or `lastCallAt` moved is stamped changed
 * (sync by cursor hears of it).
 */
export function leadFactsStatement(organizationId: string, leadId: number | null, now: Date): Statement {
  return {
    sql: `with old as (
            select f.lead_id, f.total_calls, f.last_call_at from lead_facts f
             where f.organization_id = ?${leadId === null ? '' : ' and f.lead_id = ?'}
          ), up as (
            insert into lead_facts as f (lead_id, organization_id, last_call_at, total_calls, last_call_status,
                                         last_call_direction, unanswered_streak, call_signal, last_inbound_at,
                                         last_email_at, last_touch_at, updated_at)
            select l.id, l.organization_id, c.last_call_at, coalesce(c.total_calls, 0), latest.status,
                   latest.direction, coalesce(streak.n, 0), coalesce(latest.signals, '{}'),
                   greatest(c.last_inbound_at, m.last_inbound_at, e.last_inbound_at), e.last_email_at,
                   greatest(c.last_call_at, m.last_at, e.last_email_at), ?::timestamptz
              from leads l
              left join lateral (
                select max(started_at) as last_call_at, count(*) as total_calls,
                       max(started_at) filter (where direction = 'inbound') as last_inbound_at,
                       max(started_at) filter (where status = 'completed') as last_completed_at
                  from calls where lead_id = l.id) c on true
              left join lateral (
                select status, direction,
                       array(select jsonb_array_elements_text(coalesce(analysis->'signals', '[]'::jsonb))) as signals
                  from calls where lead_id = l.id
                 order by started_at desc, connector desc, external_id desc limit 1) latest on true
              left join lateral (
                select count(*) as n from calls
                 where lead_id = l.id and direction = 'outbound' and status <> 'completed'
                   and (c.last_completed_at is null or started_at > c.last_completed_at)) streak on true
              left join lateral (
                select max(at) as last_at, max(at) filter (where direction = 'inbound') as last_inbound_at
                  from chat_messages where lead_id = l.id) m on true
              left join lateral (
                select max(message_at) as last_email_at,
                       max(message_at) filter (where source = 'captured' and capture_direction = 'inbound') as last_inbound_at
                  from emails where lead_id = l.id) e on true
             where l.organization_id = ?${leadId === null ? '' : ' and l.id = ?'}
            on conflict (lead_id) do update
               set last_call_at = excluded.last_call_at, total_calls = excluded.total_calls,
                   last_call_status = excluded.last_call_status, last_call_direction = excluded.last_call_direction,
                   unanswered_streak = excluded.unanswered_streak, call_signal = excluded.call_signal,
                   last_inbound_at = excluded.last_inbound_at, last_email_at = excluded.last_email_at,
                   last_touch_at = excluded.last_touch_at, updated_at = excluded.updated_at
            returning f.lead_id, f.total_calls, f.last_call_at
          ), touched as (
            update leads l set changed_at = now()
              from up left join old on old.lead_id = up.lead_id
             where l.id = up.lead_id
               and (up.total_calls, up.last_call_at) is distinct from (coalesce(old.total_calls, 0), old.last_call_at)
            returning l.id
          )
          select (select count(*) from up) as leads, (select count(*) from touched) as touched`,
    params: [
      organizationId,
      ...(leadId === null ? [] : [leadId]),
      now,
      organizationId,
      ...(leadId === null ? [] : [leadId]),
    ],
  };
}

/**
 * The lead facts of the lead's work (issue 13): `pendingTasks`, `nextTaskDueAt`, `overdueFrom`
 * (the first instant the lead has an overdue pending task: a date-only task, stored at 00:00 UTC
 * of its date, from the next day's 00:00; a timed task once its due moment has passed, one
 * microsecond after it) and `openDealStages` (distinct, sorted), recomputed from the stored tasks
 * and deals of one lead, or of every lead of the organization (`leadId` null), in one statement:
 * order independent, and a lead without a facts row gets one. Run by the task and deal writes
 * in their transaction, after the lead's row lock, and by `facts:rebuild`.
 */
export function leadWorkFactsStatement(organizationId: string, leadId: number | null, now: Date): Statement {
  return {
    sql: `insert into lead_facts as f (lead_id, organization_id, pending_tasks, next_task_due_at, overdue_from,
                                       open_deal_stages, updated_at)
          select l.id, l.organization_id, coalesce(t.pending, 0), t.next_due, t.overdue_from,
                 coalesce(d.stages, '{}'), ?::timestamptz
            from leads l
            left join lateral (
              select count(*) as pending, min(due_date) as next_due,
                     min(case when mod(extract(epoch from due_date), 86400) = 0 then due_date + interval '1 day'
                              else due_date + interval '1 microsecond' end) as overdue_from
                from tasks where lead_id = l.id and status = 'pending') t on true
            left join lateral (
              select array_agg(distinct stage order by stage) as stages
                from deals where lead_id = l.id and status = 'open') d on true
           where l.organization_id = ?${leadId === null ? '' : ' and l.id = ?'}
          on conflict (lead_id) do update
             set pending_tasks = excluded.pending_tasks, next_task_due_at = excluded.next_task_due_at,
                 overdue_from = excluded.overdue_from, open_deal_stages = excluded.open_deal_stages,
                 updated_at = excluded.updated_at`,
    params: [now, organizationId, ...(leadId === null ? [] : [leadId])],
  };
}

/** Columns of a chat message as the conversation shows it (bodies cut in SQL). */
const MESSAGE_COLUMNS = (m: string) => {
  const cut = RECORD_LIMITS.conversationBody;
  return `${m}.id, ${m}.channel, ${m}.kind, ${m}.direction, ${m}.status, ${m}.at, left(${m}.body, ${cut}) as body,
          length(${m}.body) > ${cut} as truncated, ${m}.files, ${m}.sent_by`;
};

/** Columns of an Email row. */
const EMAIL_COLUMNS = (e: string) =>
  `${e}.id, ${e}.subject, ${e}.status, ${e}.source, ${e}.capture_direction, ${e}.from_address,
   ${e}.recipient_email, ${e}.body_text, ${e}.sent_at, ${e}.message_at, ${e}.captured_at, ${e}.created_at`;

/** Columns of a Call row (no transcript or analysis bodies). */
const CALL_COLUMNS = `c.id, c.lead_id, c.owner_id, c.direction, c.status, c.outcome, c.ended_reason,
  c.duration_seconds, c.has_recording, c.transcript is not null as has_transcript,
  c.analysis is not null as has_analysis, c.started_at, c.ended_at, c.created_at`;

/** A page of a lead's calls, newest `startedAt` first, with the exact total (page ids first). */
export function callsPageStatement(
  organizationId: string,
  leadId: number,
  offset: number,
  limit: number,
): Statement {
  return {
    sql: `with total as (select count(*) as total from calls where organization_id = ? and lead_id = ?),
          page as (select id, started_at from calls where organization_id = ? and lead_id = ?
                    order by started_at desc, id desc limit ? offset ?)
          select total.total, ${CALL_COLUMNS}
            from total left join (page join calls c on c.id = page.id) on true
           order by page.started_at desc, page.id desc`,
    params: [organizationId, leadId, organizationId, leadId, limit, offset],
  };
}

/** One call's lead and, as asked, its transcript or analysis. */
export function callPartStatement(
  organizationId: string,
  callId: string,
  part: 'transcript' | 'analysis',
): Statement {
  const columns = part === 'transcript' ? 'c.transcript, c.detected_language' : 'c.analysis';
  return {
    sql: `select c.id, c.lead_id, ${columns} from calls c where c.organization_id = ? and c.id = ?`,
    params: [organizationId, callId],
  };
}

/**
 * A lead's messages older than `before` (exclusive), newest first: `limit + 1` rows, the extra one
 * telling whether the page would end inside a group sharing one `at`. Bodies are cut in SQL.
 */
export function conversationStatement(
  organizationId: string,
  leadId: number,
  query: { limit: number; before: Date | null; channel: string | null },
): Statement {
  // each filter its own statement shape, so every prepared plan keeps to the (lead, channel, at) indexes
  const before = query.before ? ' and m.at < ?' : '';
  const channel = query.channel ? ' and m.channel = ?' : '';
  return {
    sql: `select ${MESSAGE_COLUMNS('m')}
            from chat_messages m
           where m.organization_id = ? and m.lead_id = ?${channel}${before}
           order by m.at desc, m.id desc limit ?`,
    params: [
      organizationId,
      leadId,
      ...(query.channel ? [query.channel] : []),
      ...(query.before ? [query.before] : []),
      query.limit + 1,
    ],
  };
}

/** A lead's most recent emails by `messageAt` (`cap + 1` rows: the extra one means more). */
export function emailsStatement(organizationId: string, leadId: number): Statement {
  return {
    sql: `select ${EMAIL_COLUMNS('e')}
            from emails e where e.organization_id = ? and e.lead_id = ?
           order by e.message_at desc, e.id desc limit ?`,
    params: [organizationId, leadId, RECORD_LIMITS.emailsCap + 1],
  };
}
