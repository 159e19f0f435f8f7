import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, forbidden, isAdmin, ListResult, Principal, wholeList } from '@app/platform';
import { Note } from '../domain/note.entity';
import { NoteRepository } from '../domain/note.repository';
import { NoteJson, toNoteJson } from '../views/note.view';
import { LeadAccess } from './lead-access';

/** Notes on leads. Anyone who reaches the lead reads and edits; a member deletes only own notes. */
@Injectable()
export class NotesService {
  constructor(
    private readonly em: EntityManager,
    private readonly notes: NoteRepository,
    private readonly access: LeadAccess,
    private readonly clock: Clock,
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
    await this.em.persist(note).flush();
    return toNoteJson(note);
  }

  async edit(actor: Principal, noteId: string, content: string): Promise<NoteJson> {
    const note = await this.access.noteOnReachableLead(actor, noteId);
    note.edit(content, this.clock.now());
    await this.em.flush();
    return toNoteJson(note);
  }

  async delete(actor: Principal, noteId: string): Promise<void> {
    const note = await this.access.noteOnReachableLead(actor, noteId);
    if (!note.isDeletableBy(actor.userId, isAdmin(actor)))
      throw forbidden('A member can delete only their own notes.');
    await this.em.remove(note).flush();
  }
}
