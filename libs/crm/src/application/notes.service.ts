import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, forbidden, isAdmin, ListResult, Principal, wholeList } from '@app/platform';
import { Note } from '../domain/note.entity';
import { NoteRepository } from '../domain/note.repository';
import { NoteJson, toNoteJson } from '../views/note.view';
import { SearchIndexing } from '../extension-points/search-indexer';
import { LeadAccess } from './lead-access';
import { noteDocument } from './search-documents';

/**
 * Notes on leads. Anyone who reaches the lead reads and edits; a member deletes only own notes.
 * Each write and its search passages commit together (issue 18 item 2).
 */
@Injectable()
export class NotesService {
  constructor(
    private readonly em: EntityManager,
    private readonly notes: NoteRepository,
    private readonly access: LeadAccess,
    private readonly clock: Clock,
    private readonly search: SearchIndexing,
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
    const note = new Note(
      { organizationId: actor.organizationId, leadId, authorId: actor.userId, content },
      this.clock.now(),
    );
    await this.em.transactional(async (em) => {
      await em.persist(note).flush();
      await this.search.upsertSources(em, [noteDocument(note)]);
    });
    return toNoteJson(note);
  }

  async edit(actor: Principal, noteId: string, content: string): Promise<NoteJson> {
    const note = await this.access.noteOnReachableLead(actor, noteId);
    note.edit(content, this.clock.now());
    await this.em.transactional(async (em) => {
      await em.flush();
      await this.search.upsertSources(em, [noteDocument(note)]);
    });
    return toNoteJson(note);
  }

  async delete(actor: Principal, noteId: string): Promise<void> {
    const note = await this.access.noteOnReachableLead(actor, noteId);
    if (!note.isDeletableBy(actor.userId, isAdmin(actor)))
      throw forbidden('A member can delete only their own notes.');
    await this.em.transactional(async (em) => {
      await em.remove(note).flush();
      await this.search.removeSources(em, note.organizationId, 'note', [note.id]);
    });
  }
}
