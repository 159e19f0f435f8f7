import data from './thesaurus-groups.json';
import { foldWord, wordsOf } from './words';

/**
 * Issue 18 "Expand": the bundled multilingual real-estate thesaurus, indexed once at module load.
 * The data file is `thesaurus-groups.json`, not `thesaurus.json`: under swc-node (the ops
 * commands) Node resolves `./thesaurus` to a JSON file before this `.ts` one. A group holds words and short phrases meaning the same thing in en, es,
 * it, pt, fr and de, lower-case with their accents; lookups ignore accents (`jardin` finds the
 * group holding `jardín`), as `unaccent` does in the index. Pure.
 */

export const THESAURUS_LANGUAGES = ['en', 'es', 'it', 'pt', 'fr', 'de'] as const;
export type ThesaurusLanguage = (typeof THESAURUS_LANGUAGES)[number];

export type ThesaurusGroup = { id: string } & Partial<Record<ThesaurusLanguage, string[]>>;

export const THESAURUS_GROUPS: readonly ThesaurusGroup[] = data.groups;

/** A member of a group: its words as written and its folded key (words joined by a space). */
export interface ThesaurusEntry {
  words: string[];
  key: string;
}

/** Folded key → the members of every group holding it, each language's first word first. */
const INDEX = new Map<string, ThesaurusEntry[]>();
/** Folded first words of the phrases: most words start none, so the planner looks no further. */
const PHRASE_STARTS = new Set<string>();
let longestPhrase = 1;

for (const group of THESAURUS_GROUPS) {
  const members = interleave(group);
  for (const member of members) {
    longestPhrase = Math.max(longestPhrase, member.words.length);
    if (member.words.length > 1) PHRASE_STARTS.add(member.key.slice(0, member.key.indexOf(' ')));
    const known = INDEX.get(member.key);
    INDEX.set(member.key, known ? distinct([...known, ...members]) : members);
  }
}

/** The most words a thesaurus phrase has: how far the query planner looks ahead. */
export const THESAURUS_MAX_PHRASE_WORDS = longestPhrase;

/** The folded key of some words: how the thesaurus and the query planner compare them. */
export function foldedKey(words: readonly string[]): string {
  return words.map(foldWord).join(' ');
}

/** Whether these words (one, or a phrase) are a thesaurus entry. */
export function inThesaurus(words: readonly string[]): boolean {
  return INDEX.has(foldedKey(words));
}

/** Whether a folded word begins some thesaurus phrase. */
export function startsPhrase(foldedWord: string): boolean {
  return PHRASE_STARTS.has(foldedWord);
}

/** The members of every group holding this folded key (the key's own entry included); empty when none. */
export function groupOf(key: string): readonly ThesaurusEntry[] {
  return INDEX.get(key) ?? [];
}

/**
 * The other members of the groups holding these words, as word lists: the first word of each
 * language, then the second of each…, so a cap keeps every language; accent variants collapse.
 */
export function synonymsOf(words: readonly string[]): string[][] {
  const key = foldedKey(words);
  return groupOf(key)
    .filter((member) => member.key !== key)
    .map((member) => member.words);
}

function interleave(group: ThesaurusGroup): ThesaurusEntry[] {
  const lists = THESAURUS_LANGUAGES.map((language) => group[language] ?? []);
  const members: ThesaurusEntry[] = [];
  const longest = Math.max(...lists.map((list) => list.length));
  for (let i = 0; i < longest; i++) {
    for (const list of lists) {
      if (i >= list.length) continue;
      const words = wordsOf(list[i]);
      if (words.length > 0) members.push({ words, key: foldedKey(words) });
    }
  }
  return distinct(members);
}

function distinct(members: ThesaurusEntry[]): ThesaurusEntry[] {
  const seen = new Set<string>();
  return members.filter((member) => !seen.has(member.key) && seen.add(member.key));
}
