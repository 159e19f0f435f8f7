import { createHash, randomBytes, randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `length` letters and digits from the CSPRNG, without modulo bias. */
export function randomAlphanumeric(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}

/** A bearer secret: prefix + 32 random bytes, base64url. */
export const randomToken = (prefix: string): string => prefix + randomBytes(32).toString('base64url');

/** Secrets are stored only as their SHA-256 (hex). */
export const sha256 = (secret: string): string => createHash('sha256').update(secret).digest('hex');
