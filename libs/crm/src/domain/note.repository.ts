import { TenantRepository } from '@app/platform';
import type { Note } from './note.entity';

export class NoteRepository extends TenantRepository<Note> {}
