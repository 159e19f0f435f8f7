import { TenantRepository } from '@app/platform/core';
import type { Note } from './note.entity';

export class NoteRepository extends TenantRepository<Note> {}
