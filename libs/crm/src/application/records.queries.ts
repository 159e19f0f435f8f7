import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { cappedResult, ListResult, OffsetResult, offsetResult, preparedRows, Principal } from '@app/platform';
import type { Statement } from '../domain/lead-reach';
import { RECORD_LIMITS } from '../domain/records';
import {
  AnalysisJson,
  CallJson,
  CallRow,
  NO_ANALYSIS,
  NO_TRANSCRIPT,
  toCallJson,
  TranscriptJson,
} from '../views/call.view';
import {
  ChatMessageRow,
  ConversationJson,
  conversationJson,
  toChatMessageJson,
} from '../views/conversation.view';
import { EmailJson, EmailRow, toEmailJson } from '../views/email.view';
import { LeadAccess } from './lead-access';
import { callPartStatement, callsPageStatement, conversationStatement, emailsStatement } from './records.sql';

export interface ConversationQuery {
  limit: number;
  before: Date | null;
  channel: string | null;
}

/**
 * `/v1` reads of what connectors pushed (crm:read, no plan): a lead's calls, a call's transcript
 * and analysis, the conversation and the emails. The lead is reached through `LeadAccess` first
 * (404 `Lead not found.`); a call of a lead out of reach is 404 `Call not found.`.
 */
@Injectable()
export class RecordsQueries {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
  ) {}

  async calls(
    actor: Principal,
    leadId: number,
    offset: number,
    limit: number,
  ): Promise<OffsetResult<CallJson>> {
    await this.access.reachableLead(actor, leadId);
    const rows = await this.run<CallRow & { total: string }>(
      callsPageStatement(actor.organizationId, leadId, offset, limit),
    );
    const calls = rows.filter((row) => row.id !== null).map(toCallJson);
    return offsetResult(calls, offset, Number(rows[0].total));
  }

  async transcript(actor: Principal, callId: string): Promise<TranscriptJson> {
    const call = await this.call<{ transcript: string | null; detected_language: string | null }>(
      actor,
      callId,
      'transcript',
    );
    if (call.transcript === null) return { callId, available: false, message: NO_TRANSCRIPT };
    return {
      callId,
      available: true,
      transcript: call.transcript,
      detectedLanguage: call.detected_language!,
      untrusted: true,
    };
  }

  async analysis(actor: Principal, callId: string): Promise<AnalysisJson> {
    const call = await this.call<{ analysis: Record<string, unknown> | null }>(actor, callId, 'analysis');
    if (call.analysis === null) return { callId, available: false, message: NO_ANALYSIS };
    return { callId, available: true, ...call.analysis };
  }

  /**
   * Newest first, `before` exclusive. A page never ends inside a group of messages sharing one
   * `at`: when the row after the page shares the last row's `at`, that group moves to the next
   * page, unless the group fills the whole page (it alone exceeds `limit`), which is then split.
   */
  async conversation(actor: Principal, leadId: number, query: ConversationQuery): Promise<ConversationJson> {
    await this.access.reachableLead(actor, leadId);
    const rows = await this.run<ChatMessageRow>(conversationStatement(actor.organizationId, leadId, query));
    if (rows.length <= query.limit) return conversationJson(leadId, rows.map(toChatMessageJson), false);
    const time = (row: ChatMessageRow) => new Date(row.at).getTime();
    const next = time(rows[query.limit]);
    let end = query.limit;
    while (end > 0 && time(rows[end - 1]) === next) end--;
    if (end === 0) end = query.limit;
    return conversationJson(leadId, rows.slice(0, end).map(toChatMessageJson), true);
  }

  async emails(actor: Principal, leadId: number): Promise<ListResult<EmailJson>> {
    await this.access.reachableLead(actor, leadId);
    const rows = await this.run<EmailRow>(emailsStatement(actor.organizationId, leadId));
    return cappedResult(rows.map(toEmailJson), RECORD_LIMITS.emailsCap);
  }

  /** The call when the caller reaches its lead; otherwise 404 `Call not found.`. */
  private async call<T>(actor: Principal, callId: string, part: 'transcript' | 'analysis') {
    const [row] = await this.run<T & { id: string; lead_id: string }>(
      callPartStatement(actor.organizationId, callId, part),
    );
    return this.access.onReachableLead(actor, row ? { ...row, leadId: Number(row.lead_id) } : null, 'Call');
  }

  private run<T>(statement: Statement): Promise<T[]> {
    return preparedRows<T>(this.em, statement);
  }
}
