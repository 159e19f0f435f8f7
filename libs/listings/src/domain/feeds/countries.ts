/**
 * Country names and codes as feeds write them → ISO 3166-1 alpha-2, upper case. Pure.
 * Any assigned alpha-2 code is accepted in any case; names in English and the local language for
 * the countries feeds list most (Kyero and REDSP are Spanish-market formats).
 */

const ALPHA2 = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT ' +
    'BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ' +
    'ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT ' +
    'HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
    'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI ' +
    'NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG ' +
    'SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

const NAMES: Record<string, string> = {
  spain: 'ES',
  espana: 'ES',
  espanya: 'ES',
  portugal: 'PT',
  italy: 'IT',
  italia: 'IT',
  france: 'FR',
  francia: 'FR',
  germany: 'DE',
  deutschland: 'DE',
  alemania: 'DE',
  'united kingdom': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  'reino unido': 'GB',
  ireland: 'IE',
  netherlands: 'NL',
  'the netherlands': 'NL',
  holland: 'NL',
  belgium: 'BE',
  luxembourg: 'LU',
  switzerland: 'CH',
  austria: 'AT',
  andorra: 'AD',
  gibraltar: 'GI',
  monaco: 'MC',
  malta: 'MT',
  cyprus: 'CY',
  'northern cyprus': 'CY',
  greece: 'GR',
  grecia: 'GR',
  turkey: 'TR',
  turkiye: 'TR',
  bulgaria: 'BG',
  croatia: 'HR',
  montenegro: 'ME',
  slovenia: 'SI',
  hungary: 'HU',
  romania: 'RO',
  poland: 'PL',
  'czech republic': 'CZ',
  czechia: 'CZ',
  slovakia: 'SK',
  sweden: 'SE',
  norway: 'NO',
  denmark: 'DK',
  finland: 'FI',
  iceland: 'IS',
  estonia: 'EE',
  latvia: 'LV',
  lithuania: 'LT',
  albania: 'AL',
  morocco: 'MA',
  marruecos: 'MA',
  tunisia: 'TN',
  egypt: 'EG',
  'south africa': 'ZA',
  'united states': 'US',
  'united states of america': 'US',
  usa: 'US',
  canada: 'CA',
  mexico: 'MX',
  brazil: 'BR',
  argentina: 'AR',
  'dominican republic': 'DO',
  'costa rica': 'CR',
  panama: 'PA',
  'united arab emirates': 'AE',
  uae: 'AE',
  thailand: 'TH',
  australia: 'AU',
  'new zealand': 'NZ',
};

const ALPHA3: Record<string, string> = {
  ESP: 'ES',
  PRT: 'PT',
  ITA: 'IT',
  FRA: 'FR',
  DEU: 'DE',
  GBR: 'GB',
  IRL: 'IE',
  NLD: 'NL',
  BEL: 'BE',
  CHE: 'CH',
  AUT: 'AT',
  AND: 'AD',
  GRC: 'GR',
  CYP: 'CY',
  MLT: 'MT',
  TUR: 'TR',
  USA: 'US',
};

/** The alpha-2 code of a country name or code, or null when it is not one we know. */
export function countryCodeOf(text: string): string | null {
  const trimmed = text.trim();
  if (/^[A-Za-z]{2}$/.test(trimmed)) {
    const code = trimmed.toUpperCase();
    if (code === 'UK') return 'GB';
    return ALPHA2.has(code) ? code : null;
  }
  if (/^[A-Za-z]{3}$/.test(trimmed) && ALPHA3[trimmed.toUpperCase()]) return ALPHA3[trimmed.toUpperCase()];
  const words = trimmed
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
  return NAMES[words] ?? null;
}
