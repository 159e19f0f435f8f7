import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, forbidden, isAdmin, ListResult, notFound, Principal, wholeList } from '@app/platform';
import { Lead } from '../domain/lead.entity';
import { Note } from '../domain/note.entity';
import { LeadAccess } from './lead-access';

export interface NoteView {
  id: string;
  leadId: number;
  authorId: string;
  content: string;
  isPinned: boolean;
  occurredAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export const noteView = (note: Note): NoteView => ({
  id: note.id,
  leadId: Number(note.leadId),
  authorId: note.authorId,
  content: note.content,
  isPinned: note.isPinned,
  occurredAt: note.occurredAt?.toISOString() ?? null,
  createdAt: note.createdAt.toISOString(),
  updatedAt: note.updatedAt.toISOString(),
});

/** Notes on leads. Anyone who reaches the lead reads and edits; a member deletes only own notes. */
@Injectable()
export class NotesService {
  constructor(
    private readonly em: EntityManager,
    private readonly access: LeadAccess,
    private readonly clock: Clock,
  ) {}

  async list(actor: Principal, leadId: number): Promise<ListResult<NoteView>> {
    await this.access.reachableLead(actor, leadId);
    const notes = await this.em.find(
      Note,
      { leadId, organizationId: actor.organizationId },
      { orderBy: { createdAt: 'desc', id: 'desc' } },
    );
    return wholeList(notes.map(noteView));
  }

  async create(actor: Principal, leadId: number, content: string): Promise<NoteView> {
    await this.access.reachableLead(actor, leadId);
    const note = new Note(
      { organizationId: actor.organizationId, leadId, authorId: actor.userId, content },
      this.clock.now(),
    );
    await this.em.persist(note).flush();
    return noteView(note);
  }

  async edit(actor: Principal, noteId: string, content: string): Promise<NoteView> {
    const note = await this.reachableNote(actor, noteId);
    note.edit(content, this.clock.now());
    await this.em.flush();
    return noteView(note);
  }

  async delete(actor: Principal, noteId: string): Promise<void> {
    const note = await this.reachableNote(actor, noteId);
    if (!note.isDeletableBy(actor.userId, isAdmin(actor)))
      throw forbidden('A member can delete only their own notes.');
    await this.em.remove(note).flush();
  }

  /** A note on a lead the caller reaches; anything else is 404 `Note not found.` */
  private async reachableNote(actor: Principal, noteId: string): Promise<Note> {
    const note = await this.em.findOne(Note, { id: noteId, organizationId: actor.organizationId });
    const lead =
      note && (await this.em.findOne(Lead, { id: note.leadId, organizationId: actor.organizationId }));
    if (!note || !lead?.isReachableBy(actor.userId, isAdmin(actor))) throw notFound('Note');
    return note;
  }
}
