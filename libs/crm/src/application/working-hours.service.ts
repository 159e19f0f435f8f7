import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Clock, Principal } from '@app/platform';
import type { WorkingHoursRule } from '../domain/free-slots';
import { WorkingHours } from '../domain/working-hours.entity';
import { WorkingHoursRepository } from '../domain/working-hours.repository';
import { toWorkingHoursJson, WorkingHoursJson } from '../views/working-hours.view';

/** The signed-in person's own working hours (session routes); null = the default. */
@Injectable()
export class WorkingHoursService {
  constructor(
    private readonly em: EntityManager,
    private readonly hours: WorkingHoursRepository,
    private readonly clock: Clock,
  ) {}

  async get(actor: Principal): Promise<WorkingHoursJson | null> {
    const own = await this.own(actor);
    return own ? toWorkingHoursJson(own) : null;
  }

  /** Replaces them; `null` returns to the default (09:00-18:00 Monday to Friday in the zone asked). */
  async put(actor: Principal, rule: WorkingHoursRule | null): Promise<WorkingHoursJson | null> {
    const own = await this.own(actor);
    if (rule === null) {
      if (own) await this.em.remove(own).flush();
      return null;
    }
    const now = this.clock.now();
    if (own) {
      own.replace(rule, now);
      await this.em.flush();
      return toWorkingHoursJson(own);
    }
    const hours = new WorkingHours(actor.organizationId, actor.userId, rule, now);
    await this.hours.save(hours);
    return toWorkingHoursJson(hours);
  }

  /** The person's own rule, or null when they set none. */
  async ruleOf(actor: Principal): Promise<WorkingHoursRule | null> {
    return (await this.own(actor))?.rule() ?? null;
  }

  private own(actor: Principal): Promise<WorkingHours | null> {
    return this.hours.findInOrg(actor.organizationId, { userId: actor.userId });
  }
}
