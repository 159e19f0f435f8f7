import { Entity, EntityRepositoryType, PrimaryKey, Property } from '@mikro-orm/core';
import { validationFailed, type ValidationIssue } from '@app/platform/core';
import { minutesOf, type WorkingDay, type WorkingHoursRule } from './free-slots';
import { WorkingHoursRepository } from './working-hours.repository';
import { isKnownZone } from '@app/platform/core';

/** INTERFACES.md: at most 14 entries. */
export const WORKING_DAYS_MAX = 14;

/**
 * The zone is a known IANA zone; each entry's `from` is before its `to`; entries of one weekday
 * do not overlap (a slot must fit inside one interval, so two overlapping ones would be a trap).
 */
export function checkWorkingHours(rule: WorkingHoursRule): void {
  const issues: ValidationIssue[] = [];
  if (!isKnownZone(rule.zone)) issues.push({ path: 'zone', message: 'zone must be a known IANA time zone' });
  rule.days.forEach((entry, i) => {
    if (minutesOf(entry.from) >= minutesOf(entry.to)) {
      issues.push({ path: `days.${i}.to`, message: 'to must be after from' });
      return;
    }
    const overlaps = rule.days.some(
      (other, j) =>
        j < i &&
        other.day === entry.day &&
        minutesOf(other.from) < minutesOf(entry.to) &&
        minutesOf(entry.from) < minutesOf(other.to),
    );
    if (overlaps) issues.push({ path: `days.${i}`, message: 'overlaps another entry of the same day' });
  });
  if (issues.length > 0) throw validationFailed(issues);
}

const byDayAndTime = (a: WorkingDay, b: WorkingDay) => a.day - b.day || a.from.localeCompare(b.from);

/** A person's own working hours, in their own zone; without a row the default applies. */
@Entity({ tableName: 'working_hours', repository: () => WorkingHoursRepository })
export class WorkingHours {
  [EntityRepositoryType]?: WorkingHoursRepository;

  @PrimaryKey({ type: 'uuid' })
  organizationId: string;

  @PrimaryKey({ type: 'uuid' })
  userId: string;

  @Property({ type: 'text' })
  zone: string;

  @Property({ type: 'json' })
  days: WorkingDay[];

  @Property({ type: 'datetime' })
  updatedAt: Date;

  constructor(organizationId: string, userId: string, rule: WorkingHoursRule, now: Date) {
    this.organizationId = organizationId;
    this.userId = userId;
    this.zone = rule.zone;
    this.days = [];
    this.updatedAt = now;
    this.replace(rule, now);
  }

  replace(rule: WorkingHoursRule, now: Date): void {
    checkWorkingHours(rule);
    this.zone = rule.zone;
    this.days = rule.days.map(({ day, from, to }) => ({ day, from, to })).sort(byDayAndTime);
    this.updatedAt = now;
  }

  rule(): WorkingHoursRule {
    return { zone: this.zone, days: this.days };
  }
}
