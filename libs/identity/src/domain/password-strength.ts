import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import * as es from '@zxcvbn-ts/language-es-es';
import { validationFailed } from '@app/platform/core';

/** zxcvbn's score, 0-4; 3 is "safely unguessable" online (about 10^10 guesses). */
export const PASSWORD_MIN_SCORE = 3;

export const WEAK_PASSWORD_MESSAGE = 'password is too easy to guess';

/**
 * How much of a password zxcvbn reads, and how many l33t substitutions it tries: its time grows
 * with both (a 200-character password of l33t symbols took 9 s with the defaults, at most 0.16 s
 * with these; docs/security/sign-in-limits.md). The first 64 characters must be strong on their own.
 */
export const STRENGTH_CHECKED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 4;

let checker: ZxcvbnFactory | undefined;

/**
 * Built once, on the first check (about 0.2 s and 30 MB over the word lists the import loads:
 * common passwords, English and Spanish words and names), never per request; a process that
 * never checks a password never builds it.
 */
const strengthChecker = (): ZxcvbnFactory =>
  (checker ??= new ZxcvbnFactory({
    translations: en.translations,
    graphs: common.adjacencyGraphs,
    dictionary: { ...common.dictionary, ...en.dictionary, ...es.dictionary },
    maxLength: STRENGTH_CHECKED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  }));

/** What the person gave about themselves: a password made of it is easy to guess for anyone who knows them. */
export interface PersonalWords {
  email: string;
  firstName: string;
  lastName: string;
  organizationName?: string;
}

const userInputsOf = (words: PersonalWords): string[] => {
  const [local = '', domain = ''] = words.email.toLowerCase().split('@');
  return [
    words.email,
    local,
    domain,
    ...local.split(/[._+-]/),
    ...domain.split('.'),
    words.firstName,
    words.lastName,
    `${words.firstName} ${words.lastName}`,
    `${words.firstName}${words.lastName}`,
    ...(words.organizationName ? [words.organizationName] : []),
  ].filter((word) => word.length > 0);
};

/** zxcvbn's score of `password` for this person, 0-4. */
export const passwordScore = (password: string, words: PersonalWords): number =>
  strengthChecker().check(password, userInputsOf(words)).score;

/**
 * The rule for every password a person chooses (sign-up, an invitation accepted, any change):
 * zxcvbn score 3 or more, the person's own email and names counted as known words; else 400
 * VALIDATION_FAILED at `password`. The length rules are the request's (10-200 characters).
 */
export function refuseWeakPassword(password: string, words: PersonalWords): void {
  if (passwordScore(password, words) < PASSWORD_MIN_SCORE) {
    throw validationFailed([{ path: 'password', message: WEAK_PASSWORD_MESSAGE }]);
  }
}
