import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import {
  Clock,
  conflict,
  eventActorOf,
  EventType,
  IntegrationPrincipal,
  Outbox,
  notFound,
  preparedRows,
  Statement,
  validationFailed,
} from '@app/platform';
import { LeadEvents } from '../extension-points/lead-events';
import { SearchIndexing } from '../extension-points/search-indexer';
import { type Direction, type EmailSource, emailDirection } from '../domain/records';
import type { UpsertResultJson } from '../views/record-upsert.view';
import { CallRow, toCallJson } from '../views/call.view';
import { ChatMessageRow, toChatMessageJson } from '../views/conversation.view';
import { EmailRow, toEmailJson } from '../views/email.view';
import { LeadFactsService } from './lead-facts.service';
import { LeadLink, LeadLinks } from './lead-links';
import {
  analysisStatement,
  CallPartRow,
  callUpsertStatement,
  emailUpsertStatement,
  messageUpsertStatement,
  RecordKey,
  transcriptStatement,
  UpsertRow,
} from './records.sql';
import {
  analysisDocument,
  emailDocument,
  messageDocument,
  SearchDocuments,
  transcriptDocument,
} from './search-documents';

/** `PUT /integrations/v1/calls/{externalId}` as the service takes it. */
export interface CallInput extends LeadLink {
  direction: Direction;
  status: string;
  outcome?: string;
  endedReason?: string;
  durationSeconds: number;
  hasRecording: boolean;
  startedAt: string;
  endedAt?: string;
  ownerUserId?: string;
  ownerEmail?: string;
}

export interface MessageInput extends LeadLink {
  channel: string;
  kind: string;
  direction: Direction;
  status: string;
  at: string;
  body: string;
  files?: { name: string }[];
  sentByUserId?: string;
  sentByEmail?: string;
}

export interface EmailInput extends LeadLink {
  source: EmailSource;
  captureDirection?: Direction;
  subject: string;
  status: string;
  fromAddress: string;
  recipientEmail: string;
  bodyText: string;
  sentAt?: string;
  messageAt: string;
  capturedAt?: string;
}

export interface TranscriptInput {
  transcript: string;
  detectedLanguage: string;
}

/** The stored analysis: the fields of INTERFACES.md "Ingestion" (`calls/{externalId}/analysis`). */
export interface AnalysisInput {
  summary: string;
  sentiment: { overall: string; score: number };
  objections: { topic: string; quote?: string; handled: boolean }[];
  nextSteps: { text: string; owner: string; dueAt?: string }[];
  coachingTips: { tip: string; category?: string }[];
  signals: string[];
  model?: string;
  analyzedAt: string;
}

/** A stored record as its search document names it. */
interface OwnedRecord {
  id: string;
  organizationId: string;
  leadId: number;
}

const instant = (value: string | undefined): Date | null => (value === undefined ? null : new Date(value));

/** Either the id or the email of a person, not both (400 names the pair). */
function onePerson(
  input: Record<string, unknown>,
  idField: string,
  emailField: string,
): { id: string | null; email: string | null } {
  const id = input[idField] as string | undefined;
  const email = input[emailField] as string | undefined;
  if (id !== undefined && email !== undefined)
    throw validationFailed([{ path: emailField, message: `send ${idField} or ${emailField}, not both` }]);
  return { id: id?.toLowerCase() ?? null, email: email ?? null };
}

/**
 * Calls, chat messages and emails pushed by connectors, upserted by their id (INTERFACES.md
 * "Upserts"). One transaction per write: the lead link (maybe a lead intake), the upsert, the
 * record's search passages (replaced whole: a later write of the record replaces its text), the
 * lead's facts. The timeline reads the records themselves, so its entry exists from the first
 * write and only once. Calls themselves carry no text: their transcript and analysis do.
 */
@Injectable()
export class RecordsIngestService {
  constructor(
    private readonly em: EntityManager,
    private readonly links: LeadLinks,
    private readonly facts: LeadFactsService,
    private readonly clock: Clock,
    private readonly events: LeadEvents,
    private readonly search: SearchIndexing,
    private readonly documents: SearchDocuments,
    private readonly outbox: Outbox,
  ) {}

  /** A call's first write (every call status is final) publishes `call_ended` after the commit. */
  async upsertCall(
    caller: IntegrationPrincipal,
    externalId: string,
    input: CallInput,
  ): Promise<UpsertResultJson> {
    const owner = onePerson({ ...input }, 'ownerUserId', 'ownerEmail');
    const result = await this.write(
      caller,
      input,
      'call',
      (leadId, id, now) =>
        callUpsertStatement({
          ...this.key(caller, externalId),
          id,
          leadId,
          actor: caller.actor,
          now,
          ownerUserId: owner.id,
          ownerEmail: owner.email,
          direction: input.direction,
          status: input.status,
          outcome: input.outcome ?? null,
          endedReason: input.endedReason ?? null,
          durationSeconds: input.durationSeconds,
          hasRecording: input.hasRecording,
          startedAt: new Date(input.startedAt),
          endedAt: instant(input.endedAt),
        }),
      // a call has no text, but its transcript's and analysis's passages are dated by its start
      async (em, record, created) => {
        if (created) return;
        const redated = await this.documents.redatedCall(em, record.organizationId, record.id);
        await this.search.upsertSources(em, redated);
      },
      // every call status is final: the first write is the call's end
      (row) => ({ type: 'call.ended', subjectType: 'call', object: toCallJson(row as CallRow & UpsertRow) }),
    );
    if (result.created) {
      await this.events.publish({
        kind: 'call_ended',
        organizationId: caller.organizationId,
        leadId: result.leadId,
        at: this.clock.now(),
      });
    }
    return result;
  }

  upsertMessage(
    caller: IntegrationPrincipal,
    externalId: string,
    input: MessageInput,
  ): Promise<UpsertResultJson> {
    const sender = onePerson({ ...input }, 'sentByUserId', 'sentByEmail');
    const at = new Date(input.at);
    return this.write(
      caller,
      input,
      'message',
      (leadId, id, now) =>
        messageUpsertStatement({
          ...this.key(caller, externalId),
          id,
          leadId,
          actor: caller.actor,
          now,
          channel: input.channel,
          kind: input.kind,
          direction: input.direction,
          status: input.status,
          at,
          body: input.body,
          fileNames: (input.files ?? []).map((file) => file.name),
          sentByUserId: sender.id,
          sentByEmail: sender.email,
        }),
      // the stored direction is the one sent: a write with another one is refused
      (em, record) =>
        this.search.upsertSources(em, [
          messageDocument({ ...record, body: input.body, direction: input.direction, at }),
        ]),
      // customer-written or not, a message is conversation text: flagged as the conversation is
      (row) => ({
        type: input.direction === 'inbound' ? 'message.received' : 'message.sent',
        subjectType: 'message',
        object: { ...toChatMessageJson(row as ChatMessageRow & UpsertRow), untrusted: true },
      }),
    );
  }

  upsertEmail(
    caller: IntegrationPrincipal,
    externalId: string,
    input: EmailInput,
  ): Promise<UpsertResultJson> {
    if (input.source === 'captured' && input.captureDirection === undefined)
      throw validationFailed([
        { path: 'captureDirection', message: 'captureDirection is required for captured emails' },
      ]);
    const captureDirection =
      input.source === 'captured' ? emailDirection(input.source, input.captureDirection) : null;
    const messageAt = new Date(input.messageAt);
    return this.write(
      caller,
      input,
      'email',
      (leadId, id, now) =>
        emailUpsertStatement({
          ...this.key(caller, externalId),
          id,
          leadId,
          actor: caller.actor,
          now,
          source: input.source,
          captureDirection,
          subject: input.subject,
          status: input.status,
          fromAddress: input.fromAddress,
          recipientEmail: input.recipientEmail,
          bodyText: input.bodyText,
          sentAt: instant(input.sentAt),
          messageAt,
          capturedAt: instant(input.capturedAt),
        }),
      (em, record) =>
        this.search.upsertSources(em, [
          emailDocument({
            ...record,
            subject: input.subject,
            bodyText: input.bodyText,
            source: input.source,
            captureDirection,
            messageAt,
          }),
        ]),
      (row) => ({
        type: captureDirection === 'inbound' ? 'email.received' : 'email.sent',
        subjectType: 'email',
        object: toEmailJson(row as EmailRow & UpsertRow),
      }),
    );
  }

  /**
   * The call's transcript, replaced whole, and its search passages (in its detected language):
   * one transaction; 404 `Call not found.` before the call exists.
   */
  putTranscript(
    caller: IntegrationPrincipal,
    externalId: string,
    input: TranscriptInput,
  ): Promise<UpsertResultJson> {
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      const [row] = await preparedRows<CallPartRow>(
        em,
        transcriptStatement(this.key(caller, externalId), input, now),
      );
      if (!row) throw notFound('Call');
      this.callEvent(em, caller, row, 'call.transcript_ready', now);
      await this.search.upsertSources(em, [
        transcriptDocument({
          ...this.callOf(caller, row),
          transcript: input.transcript,
          detectedLanguage: input.detectedLanguage,
        }),
      ]);
      return { id: row.id, leadId: Number(row.lead_id), created: false };
    });
  }

  /** The call's analysis, replaced whole (its `signals` are the lead's `callSignal` when it is the latest call). */
  async putAnalysis(
    caller: IntegrationPrincipal,
    externalId: string,
    input: AnalysisInput,
  ): Promise<UpsertResultJson> {
    const analysis = {
      summary: input.summary,
      sentiment: input.sentiment,
      objections: input.objections.map((o) => ({
        topic: o.topic,
        quote: o.quote ?? null,
        handled: o.handled,
      })),
      nextSteps: input.nextSteps.map((s) => ({
        text: s.text,
        owner: s.owner,
        dueAt: s.dueAt === undefined ? null : new Date(s.dueAt).toISOString(),
      })),
      coachingTips: input.coachingTips.map((c) => ({ tip: c.tip, category: c.category ?? null })),
      signals: [...new Set(input.signals)],
      model: input.model ?? null,
      analyzedAt: new Date(input.analyzedAt).toISOString(),
    };
    return this.em.transactional(async (em) => {
      const now = this.clock.now();
      const [row] = await preparedRows<CallPartRow>(
        em,
        analysisStatement(this.key(caller, externalId), analysis, now),
      );
      if (!row) throw notFound('Call');
      this.callEvent(em, caller, row, 'call.analysis_ready', now);
      await this.search.upsertSources(em, [analysisDocument({ ...this.callOf(caller, row), analysis })]);
      await this.facts.recompute(em, caller.organizationId, Number(row.lead_id), now);
      return { id: row.id, leadId: Number(row.lead_id), created: false };
    });
  }

  private key(caller: IntegrationPrincipal, externalId: string): RecordKey {
    return { organizationId: caller.organizationId, connector: caller.connector, externalId };
  }

  /** The call a transcript or analysis belongs to: its passages' source and date. */
  private callOf(caller: IntegrationPrincipal, row: CallPartRow) {
    return {
      id: row.id,
      organizationId: caller.organizationId,
      leadId: Number(row.lead_id),
      startedAt: new Date(row.started_at),
    };
  }

  /** A call's transcript or analysis stored: its event, the call's view as object. */
  private callEvent(
    em: EntityManager,
    caller: IntegrationPrincipal,
    row: CallPartRow,
    type: EventType,
    now: Date,
  ): void {
    this.outbox.record(em, {
      organizationId: caller.organizationId,
      type,
      occurredAt: now,
      subject: { type: 'call', id: row.id, leadId: Number(row.lead_id) },
      recordVersion: row.version,
      actor: eventActorOf(caller),
      data: { object: toCallJson(row as CallPartRow & CallRow) },
    });
  }

  /**
   * The lead link, the upsert, its search passages (`index`), the facts: one transaction. The
   * record's first write records its event (`created`: the catalogue has no update of these).
   */
  private write(
    caller: IntegrationPrincipal,
    link: LeadLink,
    kind: string,
    statement: (leadId: number, id: string, now: Date) => Statement,
    index: (em: EntityManager, record: OwnedRecord, created: boolean) => Promise<void>,
    created: (row: UpsertRow) => { type: EventType; subjectType: string; object: unknown },
  ): Promise<UpsertResultJson> {
    return this.em.transactional(async (em) => {
      const leadId = await this.links.resolve(caller, {
        leadId: link.leadId,
        contact: link.contact,
        createLead: link.createLead,
      });
      const now = this.clock.now();
      const [row] = await preparedRows<UpsertRow>(em, statement(leadId, uuidv7(), now));
      if (!row)
        throw conflict(
          `This ${kind} was stored on another lead or with another direction; neither can change.`,
        );
      const record = { id: row.id, organizationId: caller.organizationId, leadId: Number(row.lead_id) };
      if (row.created) {
        const event = created(row);
        this.outbox.record(em, {
          organizationId: caller.organizationId,
          type: event.type,
          occurredAt: now,
          subject: { type: event.subjectType, id: row.id, leadId: record.leadId },
          recordVersion: row.version,
          actor: eventActorOf(caller),
          data: { object: event.object },
        });
      }
      await index(em, record, row.created);
      await this.facts.recompute(em, caller.organizationId, leadId, now);
      return { id: row.id, leadId: Number(row.lead_id), created: row.created };
    });
  }
}
