import { TenantRepository } from '@app/platform/core';
import type { Lead } from './lead.entity';

export type ContactKind = 'email' | 'phone';

export class LeadRepository extends TenantRepository<Lead> {
  /**
   * The most recently updated lead of the agency with this contact key (contact-keys.ts): one
   * indexed lookup (`leads_org_email_match_idx`, `leads_org_phone_match_idx`).
   */
  async latestByContact(organizationId: string, kind: ContactKind, key: string): Promise<Lead | null> {
    const where = kind === 'email' ? `lower(l.email) = ? and l.email <> ''` : 'l.phone_key = ?';
    const rows = await this.getEntityManager().execute<{ id: string }[]>(
      `select l.id from leads l where l.organization_id = ? and ${where}
        order by l.updated_at desc, l.id desc limit 1`,
      [organizationId, key],
    );
    return rows.length === 0 ? null : this.findInOrg(organizationId, { id: Number(rows[0].id) });
  }

  /**
   * Inside a transaction: intakes naming the same person (external id, email or phone) run one at
   * a time, so parallel intakes of one person make one lead. Locks are taken in one order.
   */
  async lockIntake(organizationId: string, keys: string[]): Promise<void> {
    for (const key of [...new Set(keys)].sort()) {
      await this.getEntityManager().execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
        `intake:${organizationId}:${key}`,
      ]);
    }
  }

  /** Whether a collaborating agency shared this lead with the person (`lead_share`). */
  async isSharedWith(person: { organizationId: string; userId: string }, leadId: number): Promise<boolean> {
    const rows = await this.getEntityManager().execute<unknown[]>(
      `select 1 from lead_share where shared_with_organization_id = ? and shared_with_user_id = ? and lead_id = ?`,
      [person.organizationId, person.userId, leadId],
    );
    return rows.length > 0;
  }
}
