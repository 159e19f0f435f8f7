import type { RouteSchedule, RouteStrategy, ScheduleEntry } from './route-definition';
import type { FactCondition, FactGroup } from './routing-facts';

/**
 * A route's `summary` (spec "Lead route": plain words): one sentence built from its structure,
 * e.g. "Leads from idealista in Spanish go to Ana and Luis in turn, Monday-Friday 09:00-18:00
 * (Europe/Madrid), at most 20 a day each." Words may change; clients branch on the structure.
 */

export interface DescribedRoute {
  conditions: FactGroup | null;
  strategy: RouteStrategy;
  paused: boolean;
  /** The people in the pool now, pool order. */
  members: { userId: string; name: string }[];
  weights: Record<string, number> | null;
  schedule: RouteSchedule | null;
  dailyCap: number | null;
  reassignAfterMinutes: number | null;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const LANGUAGES: Record<string, string> = {
  ca: 'Catalan',
  da: 'Danish',
  de: 'German',
  en: 'English',
  es: 'Spanish',
  fi: 'Finnish',
  fr: 'French',
  it: 'Italian',
  nl: 'Dutch',
  no: 'Norwegian',
  pl: 'Polish',
  pt: 'Portuguese',
  ru: 'Russian',
  sv: 'Swedish',
  uk: 'Ukrainian',
  zh: 'Chinese',
};
/** People named before "and N others". */
const NAMED = 4;

/** "a", "a or b", "a, b or c" (`word` joins the last two). */
export function listWords(items: readonly string[], word: 'and' | 'or'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

const language = (code: string): string => LANGUAGES[code.toLowerCase()] ?? code;

/** The words of one condition, to follow "Leads". */
function conditionWords(condition: FactCondition): string {
  const { field, operator, value } = condition;
  const values = value.kind === 'strings' ? value.values : [];
  const any = listWords(values, 'or');
  const not = operator === 'has_none_of';
  switch (field) {
    case 'hasPhone':
      return operator === 'is_true' ? 'with a phone number' : 'without a phone number';
    case 'hasEmail':
      return operator === 'is_true' ? 'with an email' : 'without an email';
    case 'arrivedAt':
      return `arriving ${operator === 'is_before' ? 'before' : 'after'} ${(value as { value: string }).value}`;
    case 'tagIds': {
      if (operator === 'is_present') return 'with a tag';
      if (operator === 'is_missing') return 'without tags';
      const tags = plural(values.length, 'chosen tag');
      if (operator === 'has_all_of') return `with all of ${tags}`;
      return not
        ? `without any of ${tags}`
        : `with ${values.length === 1 ? 'a chosen tag' : `any of ${tags}`}`;
    }
    case 'growthAreaId': {
      if (operator === 'is_present') return 'in a growth area';
      if (operator === 'is_missing') return 'outside every growth area';
      const areas = values.length === 1 ? 'a chosen growth area' : `one of ${values.length} growth areas`;
      return not ? `outside ${areas}` : `in ${areas}`;
    }
    default:
      break;
  }
  const noun: Record<string, string> = {
    source: 'a source',
    origin: 'an origin',
    leadType: 'a lead type',
    language: 'a language',
    country: 'a country',
  };
  if (operator === 'is_present') return `with ${noun[field]}`;
  if (operator === 'is_missing') return `without ${noun[field]}`;
  switch (field) {
    case 'source':
      return not ? `not from ${any}` : `from ${any}`;
    case 'origin':
      return not ? `not with origin ${any}` : `with origin ${any}`;
    case 'leadType':
      return not ? `not of type ${any}` : `of type ${any}`;
    case 'language': {
      const names = listWords(values.map(language), 'or');
      return not ? `not in ${names}` : `in ${names}`;
    }
    default: {
      const countries = listWords(
        values.map((code) => code.toUpperCase()),
        'or',
      );
      return not ? `not from country ${countries}` : `from country ${countries}`;
    }
  }
}

/** A group's words; a nested group inside another reads in parentheses. */
function groupWords(group: FactGroup, nested: boolean): string {
  const parts = group.children.map((child) =>
    child.type === 'group' ? groupWords(child, true) : conditionWords(child),
  );
  const text = group.combinator === 'and' ? parts.join(' ') : listWords(parts, 'or');
  return nested && parts.length > 1 ? `(${text})` : text;
}

/** The subject and its verb: "Every lead goes to", "Leads from idealista go to". */
function who(conditions: FactGroup | null): string {
  if (!conditions || conditions.children.length === 0) return 'Every lead goes to';
  return `Leads ${groupWords(conditions, false)} go to`;
}

function people(route: DescribedRoute): string {
  const { members } = route;
  if (members.length === 0) return 'nobody yet (no one active is in the pool)';
  const label = (member: { userId: string; name: string }): string =>
    route.strategy === 'weighted' && route.weights?.[member.userId] !== undefined
      ? `${member.name} (${route.weights[member.userId]}%)`
      : member.name;
  const named = members.slice(0, NAMED).map(label);
  const names =
    members.length > NAMED
      ? `${named.join(', ')} and ${plural(members.length - NAMED, 'other')}`
      : listWords(named, 'and');
  if (members.length === 1) return names;
  if (route.strategy === 'weighted') return `${names} by weight`;
  if (route.strategy === 'smart') return `whoever of ${names} has had the fewest leads today`;
  return `${names} in turn`;
}

/** "Monday-Friday 09:00-18:00 and Saturday 10:00-14:00 (Europe/Madrid)". */
export function scheduleWords(schedule: RouteSchedule): string {
  if (schedule.days.length === 0) return 'never (the schedule has no open time)';
  // entries with the same hours, their days in week order
  const byHours = new Map<string, number[]>();
  for (const entry of [...schedule.days].sort(byDayThenFrom)) {
    const hours = `${entry.from}-${entry.to}`;
    const days = byHours.get(hours) ?? [];
    if (!days.includes(entry.day)) days.push(entry.day);
    byHours.set(hours, days);
  }
  const parts = [...byHours.entries()].map(([hours, days]) => `${dayRanges(days)} ${hours}`);
  return `${listWords(parts, 'and')} (${schedule.zone})`;
}

const byDayThenFrom = (a: ScheduleEntry, b: ScheduleEntry): number =>
  a.day - b.day || a.from.localeCompare(b.from);

/** [1,2,3,4,5,7] → "Monday-Friday and Sunday". */
function dayRanges(days: number[]): string {
  const sorted = [...days].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const day of sorted) {
    const last = runs[runs.length - 1];
    if (last && day === last[1] + 1) last[1] = day;
    else runs.push([day, day]);
  }
  const name = (day: number): string => WEEKDAYS[day - 1] ?? `day ${day}`;
  const words = runs.flatMap(([from, to]) =>
    from === to ? [name(from)] : to === from + 1 ? [name(from), name(to)] : [`${name(from)}-${name(to)}`],
  );
  return listWords(words, 'and');
}

function minutesWords(minutes: number): string {
  if (minutes % (24 * 60) === 0) return plural(minutes / (24 * 60), 'day');
  if (minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

/** One plain sentence saying what the route does. */
export function describeRoute(route: DescribedRoute): string {
  const parts = [`${who(route.conditions)} ${people(route)}`];
  if (route.schedule) parts.push(scheduleWords(route.schedule));
  if (route.dailyCap !== null) {
    parts.push(`at most ${route.dailyCap} a day${route.members.length === 1 ? '' : ' each'}`);
  }
  if (route.reassignAfterMinutes !== null) {
    parts.push(`passed to the next person when untouched after ${minutesWords(route.reassignAfterMinutes)}`);
  }
  const sentence = `${parts.join(', ')}.`;
  return route.paused ? `Paused: ${sentence}` : sentence;
}
