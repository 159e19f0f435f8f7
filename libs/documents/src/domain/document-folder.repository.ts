import { TenantRepository } from '@app/platform/core';
import type { DocumentFolder } from './document-folder.entity';

export class DocumentFolderRepository extends TenantRepository<DocumentFolder> {
  /** The organization's folders by name. */
  byName(organizationId: string): Promise<DocumentFolder[]> {
    return this.listInOrg(organizationId, {}, { orderBy: { name: 'asc', id: 'asc' } });
  }
}
