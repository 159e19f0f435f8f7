import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, eventActorOf, forbidden, isAdmin, ListResult, Principal, wholeList } from '@app/platform';
import { Note } from '../domain/note.entity';
import { NoteRepository } from '../domain/note.repository';
import { NoteJson, toNoteJson } from '../views/note.view';
import { SearchIndexing } from '../extension-points/search-indexer';
import { CrmEvents } from './crm-events';
import { LeadAccess } from './lead-access';
import { noteDocument } from './search-documents';

/**
 * Notes on leads. Anyone who reaches the lead reads and edits; a member deletes only own notes.
 * Each write, its search passages (issue 18 item 2) and its event (`note.created|updated|deleted`,
 * issue 19) commit together.
 */
@Injectable()
export class NotesService {
  constructor(
    private readonly em: EntityManager,
    private readonly notes: NoteRepository,
    private readonly access: LeadAccess,
    private readonly clock: Clock,
    private readonly search: SearchIndexing,
    private readonly events: CrmEvents,
  ) {}

  async list(actor: Principal, leadId: number): Promise<ListResult<NoteJson>> {
    await this.access.reachableLead(actor, leadId);
    const notes = await this.notes.listInOrg(
      actor.organizationId,
      { leadId },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
    return wholeList(notes.map(toNoteJson));
  }

  async create(actor: Principal, leadId: number, content: string): Promise<NoteJson> {
    await this.access.reachableLead(actor, leadId);
    const now = this.clock.now();
    const note = new Note(
      { organizationId: actor.organizationId, leadId, authorId: actor.userId, content },
      now,
    );
    await this.em.transactional(async (em) => {
      await em.persist(note).flush();
      await this.search.upsertSources(em, [noteDocument(note)]);
      await this.events.note(em, note, { type: 'note.created' }, eventActorOf(actor), now);
    });
    return toNoteJson(note);
  }

  async edit(actor: Principal, noteId: string, content: string): Promise<NoteJson> {
    const note = await this.access.noteOnReachableLead(actor, noteId);
    const previous = note.content;
    const now = this.clock.now();
    note.edit(content, now);
    await this.em.transactional(async (em) => {
      await em.flush();
      await this.search.upsertSources(em, [noteDocument(note)]);
      // the same text again changes nothing a reader sees: no event
      if (content !== previous) {
        const change = { changedFields: ['content'], previous: { content: previous } };
        await this.events.note(em, note, { type: 'note.updated', change }, eventActorOf(actor), now);
      }
    });
    return toNoteJson(note);
  }

  async delete(actor: Principal, noteId: string): Promise<void> {
    const note = await this.access.noteOnReachableLead(actor, noteId);
    if (!note.isDeletableBy(actor.userId, isAdmin(actor)))
      throw forbidden('A member can delete only their own notes.');
    await this.em.transactional(async (em) => {
      await this.events.note(em, note, { type: 'note.deleted' }, eventActorOf(actor), this.clock.now());
      await em.remove(note).flush();
      await this.search.removeSources(em, note.organizationId, 'note', [note.id]);
    });
  }
}
