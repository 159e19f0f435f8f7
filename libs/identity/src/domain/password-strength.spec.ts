import { DomainError } from '@app/platform/core';
import { passwordScore, refuseWeakPassword, STRENGTH_CHECKED_LENGTH } from './password-strength';

const LUCIA = { email: 'lucia.ortega@solhomes.example', firstName: 'Lucía', lastName: 'Ortega' };

const refusal = (password: string, words = LUCIA): unknown => {
  try {
    refuseWeakPassword(password, words);
    return null;
  } catch (err) {
    return err instanceof DomainError ? { code: err.code, details: err.details } : err;
  }
};

const WEAK = {
  code: 'VALIDATION_FAILED',
  details: { issues: [{ path: 'password', message: 'password is too easy to guess' }] },
};

describe('the password strength rule', () => {
  it.each([
    '1234567890',
    'password1234',
    'qwertyuiop',
    'Password123!',
    'p@$$w0rd!1',
    'contraseña1',
    'aaaaaaaaaaaa',
  ])('refuses the common or patterned %j with VALIDATION_FAILED at password', (password) => {
    expect(refusal(password)).toEqual(WEAK);
  });

  it.each([
    'lucia.ortega2026',
    'Lucía Ortega 1',
    'solhomes1234',
    'ortegalucia1',
    'lucia.ortega@solhomes.example',
  ])("refuses %j, made of the person's own email and names", (password) => {
    expect(refusal(password)).toEqual(WEAK);
  });

  it("counts the agency's name as known words at sign-up", () => {
    expect(refusal('Sol Homes Madrid 1')).toBeNull();
    expect(
      refusal('Sol Homes Madrid 1', { ...LUCIA, organizationName: 'Sol Homes Madrid' } as never),
    ).toEqual(WEAK);
  });

  it.each([
    'correct horse battery',
    'member password 1',
    'tortilla de patatas',
    'Kx9#mQ2vLp',
    'violeta-sur-puerta-82',
  ])('takes %j (score 3 or more)', (password) => {
    expect(passwordScore(password, LUCIA)).toBeGreaterThanOrEqual(3);
    expect(refusal(password)).toBeNull();
  });

  it(`reads the first ${STRENGTH_CHECKED_LENGTH} characters only, so the worst 200-character input stays fast`, () => {
    passwordScore('warm up', LUCIA);
    // l33t symbols make zxcvbn try substitutions: 9 s for 200 of them with its defaults
    const hostile = ['4@3!0$1|'.repeat(25), '|!1'.repeat(67), '$5|!1@4|3(0+7'.repeat(16), 'aB1!'.repeat(50)];
    for (const password of hostile) {
      const started = performance.now();
      passwordScore(password, LUCIA);
      expect(performance.now() - started).toBeLessThan(1500);
    }
    // a weak start is weak whatever follows past the checked length
    expect(refusal(`${'1234567890'.repeat(7)}Kx9#mQ2vLp-violeta`)).toEqual(WEAK);
  });
});
