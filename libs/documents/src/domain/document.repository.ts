import { TenantRepository } from '@app/platform/core';
import type { Document } from './document.entity';

export class DocumentRepository extends TenantRepository<Document> {
  byShareToken(token: string): Promise<Document | null> {
    return this.findOne({ shareToken: token });
  }
}
