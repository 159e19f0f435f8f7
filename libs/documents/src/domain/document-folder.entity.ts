import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { v7 as uuidv7 } from 'uuid';
import { DocumentFolderRepository } from './document-folder.repository';

/** Spec Limits / INTERFACES.md "Documents": a folder name 1-100; folders nest at most 5 levels. */
export const FOLDER_LIMITS = { name: 100, depth: 5 } as const;

/** A folder of the library (spec "Document and folder"); a sibling name is unique (409). */
@Entity({ tableName: 'document_folders', repository: () => DocumentFolderRepository })
export class DocumentFolder {
  [EntityRepositoryType]?: DocumentFolderRepository;

  @PrimaryKey({ type: 'uuid' })
  id: string = uuidv7();

  @Property({ type: 'uuid' })
  organizationId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'uuid', nullable: true })
  parentId: string | null;

  @Property({ type: 'uuid' })
  createdBy: string;

  @Property({ type: 'datetime' })
  createdAt: Date;

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(props: {
    organizationId: string;
    name: string;
    parentId: string | null;
    createdBy: string;
    now: Date;
  }) {
    this.organizationId = props.organizationId;
    this.name = props.name;
    this.parentId = props.parentId;
    this.createdBy = props.createdBy;
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }
}
