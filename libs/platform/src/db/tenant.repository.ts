import type { FilterQuery, FindOneOptions, FindOptions, Loaded } from '@mikro-orm/core';
import { EntityRepository } from '@mikro-orm/postgresql';

/** A row that belongs to one agency. */
export interface TenantOwned {
  organizationId: string;
}

/**
 * The repository of a tenant-owned aggregate (STYLE.md §5): every finder takes the organization
 * first, so another agency's row is never found. Bind it on the entity with
 * `@Entity({ repository: () => XRepository })` and `[EntityRepositoryType]`; services inject the
 * class. Lookups anywhere else are refused by `npm run lint` (rule `tenant/scoped-lookups`).
 */
export abstract class TenantRepository<T extends TenantOwned> extends EntityRepository<T> {
  /** One of the agency's rows, or null. */
  findInOrg<Hint extends string = never>(
    organizationId: string,
    where: FilterQuery<T>,
    options?: FindOneOptions<T, Hint>,
  ): Promise<Loaded<T, Hint> | null> {
    return this.findOne(this.scoped(organizationId, where), options);
  }

  /** The agency's rows matching `where`. */
  listInOrg<Hint extends string = never>(
    organizationId: string,
    where: FilterQuery<T> = {} as FilterQuery<T>,
    options?: FindOptions<T, Hint>,
  ): Promise<Loaded<T, Hint>[]> {
    return this.find(this.scoped(organizationId, where), options);
  }

  countInOrg(organizationId: string, where: FilterQuery<T> = {} as FilterQuery<T>): Promise<number> {
    return this.count(this.scoped(organizationId, where));
  }

  protected scoped(organizationId: string, where: FilterQuery<T>): FilterQuery<T> {
    return { ...(where as object), organizationId } as FilterQuery<T>;
  }
}
