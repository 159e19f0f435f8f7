import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { preparedRows, Principal, wholeList, type ListResult } from '@app/platform';
import { viewerOf, visibleDocumentsSql } from '../domain/document-access';
import { toFolderJson, type FolderJson } from '../views/folder.view';

/** The `/v1` folder list: every folder of the agency by name, counting what the caller sees. */
@Injectable()
export class DocumentFoldersQueries {
  constructor(private readonly em: EntityManager) {}

  async list(actor: Principal): Promise<ListResult<FolderJson>> {
    const visible = visibleDocumentsSql('d', actor.organizationId, viewerOf(actor));
    const rows = await preparedRows<{ id: string; name: string; parent_id: string | null; n: number }>(
      this.em,
      {
        sql: `select f.id, f.name, f.parent_id, coalesce(c.n, 0)::int as n
                from document_folders f
                left join (select d.folder_id, count(*) as n from documents d
                            where ${visible.sql} and d.folder_id is not null
                            group by d.folder_id) c on c.folder_id = f.id
               where f.organization_id = ?
               order by lower(f.name), f.id`,
        params: [...visible.params, actor.organizationId],
      },
    );
    return wholeList(
      rows.map((row) => toFolderJson({ id: row.id, name: row.name, parentId: row.parent_id }, row.n)),
    );
  }
}
