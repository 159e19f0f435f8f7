import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * How a contact is matched to a lead (INTERFACES.md "Ingestion", lead link and intake): email
 * ignoring case; phone as E.164 read with the organization's country as the default region (`ES`
 * while organizations have no country), and a number that does not parse by its exact digits.
 * Leads store the phone's key (`phone_key`) so matching is one indexed lookup.
 */
export const DEFAULT_PHONE_REGION = 'ES';

/** The lower-cased, trimmed email; null for none. */
export function emailKey(email: string | null | undefined): string | null {
  const key = email?.trim().toLowerCase();
  return key ? key : null;
}

/** `+34612345678` for `612 34 56 78` (region ES) or `+34 612-345-678`; the bare digits when unparsable. */
export function phoneKey(
  phone: string | null | undefined,
  region: string = DEFAULT_PHONE_REGION,
): string | null {
  const text = phone?.trim();
  if (!text) return null;
  const parsed = parsePhoneNumberFromString(text, region.toUpperCase() as CountryCode);
  if (parsed?.isPossible()) return parsed.number;
  const digits = text.replace(/\D/g, '');
  return digits ? digits : null;
}

/** `portal:idealista`, `website:casa-es`, … (INTERFACES.md "Lead intake"). */
export const ORIGIN_PATTERN = /^(portal|website|social|referral|campaign|other):[a-z0-9._-]{1,60}$/;

/** A connector that names no origin: `other:<connector>`. */
export const defaultOrigin = (connector: string): string => `other:${connector}`;
