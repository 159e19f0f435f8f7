/**
 * Listing descriptions from fixed templates (INTERFACES.md "Listings", `POST
 * /properties/{id}/description`): one set of sentences per language and tone, filled from the
 * listing's own fields. Pure and deterministic: the same listing and options give the same text;
 * no external model. The text never exceeds `maxLength` (cut after the last whole sentence that
 * fits, else after the last whole word).
 */

export const DESCRIPTION_LANGUAGES = ['en', 'es', 'it', 'pt', 'de', 'fr'] as const;
export type DescriptionLanguage = (typeof DESCRIPTION_LANGUAGES)[number];

export const DESCRIPTION_TONES = ['neutral', 'warm', 'luxury'] as const;
export type DescriptionTone = (typeof DESCRIPTION_TONES)[number];

export const DESCRIPTION_LIMITS = { min: 200, max: 5000, default: 1000 } as const;

/** The listing fields a description is made of (a `Listing` fits). */
export interface DescribedListing {
  propertyType: string;
  operation: string;
  rentPeriod: string | null;
  city: string;
  community: string | null;
  bedrooms: number | null;
  /** One decimal, as stored (`"2.5"`). */
  bathrooms: string | number | null;
  areaUnit: string;
  livingArea: string | number | null;
  plotArea: string | number | null;
  features: readonly string[];
  energyRating: string | null;
  price: string | number;
  currency: string;
}

export interface DescriptionOptions {
  language: DescriptionLanguage;
  tone: DescriptionTone;
  maxLength: number;
}

type Plural = (n: string, count: number) => string;

interface LanguagePack {
  locale: string;
  types: Record<string, string>;
  /** `{type} for sale in {place}` and friends. */
  headline: (type: string, operation: 'sale' | 'rent', place: string) => string;
  opening: Record<DescriptionTone, (headline: string) => string>;
  bedrooms: Plural;
  bathrooms: Plural;
  rooms: (parts: string[]) => string;
  livingArea: (area: string) => string;
  plotArea: (area: string) => string;
  sqftUnit: string;
  features: (list: string) => string;
  and: string;
  energy: (rating: string) => string;
  salePrice: (price: string) => string;
  rentPrice: (price: string, period: string) => string;
  periods: Record<string, string>;
  closing: Record<DescriptionTone, string>;
  featureLabels: Record<string, string>;
}

const plural =
  (one: string, many: string): Plural =>
  (n, count) =>
    `${n} ${count === 1 ? one : many}`;

const EN: LanguagePack = {
  locale: 'en-GB',
  types: {
    apartment: 'apartment',
    house: 'house',
    villa: 'villa',
    townhouse: 'townhouse',
    penthouse: 'penthouse',
    studio: 'studio',
    duplex: 'duplex',
    land: 'plot of land',
    commercial: 'commercial property',
    office: 'office',
    garage: 'garage',
    other: 'property',
  },
  headline: (type, operation, place) => `${type} for ${operation === 'sale' ? 'sale' : 'rent'} in ${place}`,
  opening: {
    neutral: (h) => `${capitalise(h)}.`,
    warm: (h) => `Welcome home: a charming ${h}.`,
    luxury: (h) => `An exceptional ${h}, offering refined living at its finest.`,
  },
  bedrooms: plural('bedroom', 'bedrooms'),
  bathrooms: plural('bathroom', 'bathrooms'),
  rooms: (parts) => `It has ${parts.join(' and ')}.`,
  livingArea: (area) => `The living area is ${area}.`,
  plotArea: (area) => `It stands on a plot of ${area}.`,
  sqftUnit: 'sq ft',
  features: (list) => `Features include ${list}.`,
  and: 'and',
  energy: (rating) => `Energy rating: ${rating}.`,
  salePrice: (price) => `Price: ${price}.`,
  rentPrice: (price, period) => `Rent: ${price} per ${period}.`,
  periods: { month: 'month', week: 'week', day: 'day' },
  closing: {
    neutral: 'Contact us for more information or to arrange a viewing.',
    warm: 'Come and see it for yourself: it could be your next home.',
    luxury: 'A rare opportunity for the most discerning buyer; private viewings on request.',
  },
  featureLabels: {
    pool: 'a swimming pool',
    private_pool: 'a private pool',
    communal_pool: 'a communal pool',
    garden: 'a garden',
    terrace: 'a terrace',
    balcony: 'a balcony',
    roof_terrace: 'a roof terrace',
    bbq: 'a barbecue',
    sea_view: 'sea views',
    mountain_view: 'mountain views',
    golf_view: 'golf views',
    beachfront: 'a beachfront location',
    golf_front: 'a frontline golf location',
    elevator: 'a lift',
    parking: 'parking',
    garage: 'a garage',
    storage_room: 'a storage room',
    gated_community: 'a gated community',
    concierge: 'a concierge',
    gym: 'a gym',
    air_conditioning: 'air conditioning',
    heating: 'heating',
    underfloor_heating: 'underfloor heating',
    fireplace: 'a fireplace',
    solar_panels: 'solar panels',
    alarm: 'an alarm system',
    fitted_kitchen: 'a fitted kitchen',
    wheelchair_access: 'wheelchair access',
    pets_allowed: 'pets allowed',
    sauna: 'a sauna',
    jacuzzi: 'a jacuzzi',
    guest_apartment: 'a guest apartment',
  },
};

const ES: LanguagePack = {
  locale: 'es-ES',
  types: {
    apartment: 'apartamento',
    house: 'casa',
    villa: 'villa',
    townhouse: 'casa adosada',
    penthouse: 'ático',
    studio: 'estudio',
    duplex: 'dúplex',
    land: 'terreno',
    commercial: 'local comercial',
    office: 'oficina',
    garage: 'garaje',
    other: 'inmueble',
  },
  headline: (type, operation, place) =>
    `${type} en ${operation === 'sale' ? 'venta' : 'alquiler'} en ${place}`,
  opening: {
    neutral: (h) => `${capitalise(h)}.`,
    warm: (h) => `Bienvenido a su nuevo hogar: ${h}.`,
    luxury: (h) => `Exclusividad y estilo: ${h}, para vivir con la máxima distinción.`,
  },
  bedrooms: plural('dormitorio', 'dormitorios'),
  bathrooms: plural('baño', 'baños'),
  rooms: (parts) => `Dispone de ${parts.join(' y ')}.`,
  livingArea: (area) => `La superficie construida es de ${area}.`,
  plotArea: (area) => `La parcela tiene ${area}.`,
  sqftUnit: 'ft²',
  features: (list) => `Entre sus características: ${list}.`,
  and: 'y',
  energy: (rating) => `Certificación energética: ${rating}.`,
  salePrice: (price) => `Precio: ${price}.`,
  rentPrice: (price, period) => `Alquiler: ${price} por ${period}.`,
  periods: { month: 'mes', week: 'semana', day: 'día' },
  closing: {
    neutral: 'Contáctenos para más información o para concertar una visita.',
    warm: 'Venga a conocerlo: puede ser su próximo hogar.',
    luxury: 'Una oportunidad única para los más exigentes; visitas privadas bajo petición.',
  },
  featureLabels: {
    pool: 'piscina',
    private_pool: 'piscina privada',
    communal_pool: 'piscina comunitaria',
    garden: 'jardín',
    terrace: 'terraza',
    balcony: 'balcón',
    roof_terrace: 'solárium',
    bbq: 'barbacoa',
    sea_view: 'vistas al mar',
    mountain_view: 'vistas a la montaña',
    golf_view: 'vistas al golf',
    beachfront: 'primera línea de playa',
    golf_front: 'primera línea de golf',
    elevator: 'ascensor',
    parking: 'aparcamiento',
    garage: 'garaje',
    storage_room: 'trastero',
    gated_community: 'urbanización cerrada',
    concierge: 'conserjería',
    gym: 'gimnasio',
    air_conditioning: 'aire acondicionado',
    heating: 'calefacción',
    underfloor_heating: 'suelo radiante',
    fireplace: 'chimenea',
    solar_panels: 'placas solares',
    alarm: 'alarma',
    fitted_kitchen: 'cocina equipada',
    wheelchair_access: 'acceso para sillas de ruedas',
    pets_allowed: 'se admiten mascotas',
    sauna: 'sauna',
    jacuzzi: 'jacuzzi',
    guest_apartment: 'apartamento de invitados',
  },
};

const IT: LanguagePack = {
  locale: 'it-IT',
  types: {
    apartment: 'appartamento',
    house: 'casa',
    villa: 'villa',
    townhouse: 'villetta a schiera',
    penthouse: 'attico',
    studio: 'monolocale',
    duplex: 'duplex',
    land: 'terreno',
    commercial: 'locale commerciale',
    office: 'ufficio',
    garage: 'garage',
    other: 'immobile',
  },
  headline: (type, operation, place) =>
    `${type} in ${operation === 'sale' ? 'vendita' : 'affitto'} a ${place}`,
  opening: {
    neutral: (h) => `${capitalise(h)}.`,
    warm: (h) => `Benvenuti a casa: ${h}.`,
    luxury: (h) => `Esclusività e stile: ${h}, per vivere con la massima eleganza.`,
  },
  bedrooms: plural('camera da letto', 'camere da letto'),
  bathrooms: plural('bagno', 'bagni'),
  rooms: (parts) => `Dispone di ${parts.join(' e ')}.`,
  livingArea: (area) => `La superficie abitabile è di ${area}.`,
  plotArea: (area) => `Il terreno misura ${area}.`,
  sqftUnit: 'ft²',
  features: (list) => `Tra le caratteristiche: ${list}.`,
  and: 'e',
  energy: (rating) => `Classe energetica: ${rating}.`,
  salePrice: (price) => `Prezzo: ${price}.`,
  rentPrice: (price, period) => `Affitto: ${price} al ${period}.`,
  periods: { month: 'mese', week: 'settimana', day: 'giorno' },
  closing: {
    neutral: 'Contattateci per maggiori informazioni o per fissare una visita.',
    warm: 'Venite a vederla: potrebbe essere la vostra prossima casa.',
    luxury: 'Un’opportunità rara per i più esigenti; visite private su richiesta.',
  },
  featureLabels: {
    pool: 'piscina',
    private_pool: 'piscina privata',
    communal_pool: 'piscina condominiale',
    garden: 'giardino',
    terrace: 'terrazza',
    balcony: 'balcone',
    roof_terrace: 'terrazza sul tetto',
    bbq: 'barbecue',
    sea_view: 'vista mare',
    mountain_view: 'vista montagna',
    golf_view: 'vista golf',
    beachfront: 'fronte mare',
    golf_front: 'fronte golf',
    elevator: 'ascensore',
    parking: 'parcheggio',
    garage: 'garage',
    storage_room: 'cantina',
    gated_community: 'complesso recintato',
    concierge: 'portineria',
    gym: 'palestra',
    air_conditioning: 'aria condizionata',
    heating: 'riscaldamento',
    underfloor_heating: 'riscaldamento a pavimento',
    fireplace: 'camino',
    solar_panels: 'pannelli solari',
    alarm: 'allarme',
    fitted_kitchen: 'cucina attrezzata',
    wheelchair_access: 'accesso per sedie a rotelle',
    pets_allowed: 'animali ammessi',
    sauna: 'sauna',
    jacuzzi: 'idromassaggio',
    guest_apartment: 'appartamento per gli ospiti',
  },
};

const PT: LanguagePack = {
  locale: 'pt-PT',
  types: {
    apartment: 'apartamento',
    house: 'moradia',
    villa: 'vivenda',
    townhouse: 'moradia em banda',
    penthouse: 'penthouse',
    studio: 'estúdio',
    duplex: 'duplex',
    land: 'terreno',
    commercial: 'espaço comercial',
    office: 'escritório',
    garage: 'garagem',
    other: 'imóvel',
  },
  headline: (type, operation, place) =>
    `${type} para ${operation === 'sale' ? 'venda' : 'arrendamento'} em ${place}`,
  opening: {
    neutral: (h) => `${capitalise(h)}.`,
    warm: (h) => `Bem-vindo a casa: ${h}.`,
    luxury: (h) => `Exclusividade e requinte: ${h}, para viver com a máxima distinção.`,
  },
  bedrooms: plural('quarto', 'quartos'),
  bathrooms: plural('casa de banho', 'casas de banho'),
  rooms: (parts) => `Dispõe de ${parts.join(' e ')}.`,
  livingArea: (area) => `A área útil é de ${area}.`,
  plotArea: (area) => `O lote tem ${area}.`,
  sqftUnit: 'ft²',
  features: (list) => `Inclui ${list}.`,
  and: 'e',
  energy: (rating) => `Certificado energético: ${rating}.`,
  salePrice: (price) => `Preço: ${price}.`,
  rentPrice: (price, period) => `Renda: ${price} por ${period}.`,
  periods: { month: 'mês', week: 'semana', day: 'dia' },
  closing: {
    neutral: 'Contacte-nos para mais informações ou para marcar uma visita.',
    warm: 'Venha conhecê-lo: pode ser a sua próxima casa.',
    luxury: 'Uma oportunidade rara para os mais exigentes; visitas privadas mediante pedido.',
  },
  featureLabels: {
    pool: 'piscina',
    private_pool: 'piscina privada',
    communal_pool: 'piscina comum',
    garden: 'jardim',
    terrace: 'terraço',
    balcony: 'varanda',
    roof_terrace: 'terraço na cobertura',
    bbq: 'churrasqueira',
    sea_view: 'vista mar',
    mountain_view: 'vista serra',
    golf_view: 'vista golfe',
    beachfront: 'primeira linha de praia',
    golf_front: 'primeira linha de golfe',
    elevator: 'elevador',
    parking: 'estacionamento',
    garage: 'garagem',
    storage_room: 'arrecadação',
    gated_community: 'condomínio fechado',
    concierge: 'portaria',
    gym: 'ginásio',
    air_conditioning: 'ar condicionado',
    heating: 'aquecimento',
    underfloor_heating: 'piso radiante',
    fireplace: 'lareira',
    solar_panels: 'painéis solares',
    alarm: 'alarme',
    fitted_kitchen: 'cozinha equipada',
    wheelchair_access: 'acesso para cadeiras de rodas',
    pets_allowed: 'animais permitidos',
    sauna: 'sauna',
    jacuzzi: 'jacuzzi',
    guest_apartment: 'apartamento de hóspedes',
  },
};

const DE: LanguagePack = {
  locale: 'de-DE',
  types: {
    apartment: 'Wohnung',
    house: 'Haus',
    villa: 'Villa',
    townhouse: 'Reihenhaus',
    penthouse: 'Penthouse',
    studio: 'Studio',
    duplex: 'Maisonette',
    land: 'Grundstück',
    commercial: 'Gewerbeimmobilie',
    office: 'Büro',
    garage: 'Garage',
    other: 'Immobilie',
  },
  headline: (type, operation, place) =>
    `${type} in ${place} ${operation === 'sale' ? 'zu verkaufen' : 'zu vermieten'}`,
  opening: {
    neutral: (h) => `${capitalise(h)}.`,
    warm: (h) => `Willkommen zu Hause: ${h}.`,
    luxury: (h) => `Exklusivität und Stil: ${h}, für Wohnen auf höchstem Niveau.`,
  },
  bedrooms: plural('Schlafzimmer', 'Schlafzimmer'),
  bathrooms: plural('Badezimmer', 'Badezimmer'),
  rooms: (parts) => `Sie bietet ${parts.join(' und ')}.`,
  livingArea: (area) => `Die Wohnfläche beträgt ${area}.`,
  plotArea: (area) => `Das Grundstück umfasst ${area}.`,
  sqftUnit: 'ft²',
  features: (list) => `Ausstattung: ${list}.`,
  and: 'und',
  energy: (rating) => `Energieeffizienzklasse: ${rating}.`,
  salePrice: (price) => `Preis: ${price}.`,
  rentPrice: (price, period) => `Miete: ${price} pro ${period}.`,
  periods: { month: 'Monat', week: 'Woche', day: 'Tag' },
  closing: {
    neutral: 'Kontaktieren Sie uns für weitere Informationen oder einen Besichtigungstermin.',
    warm: 'Überzeugen Sie sich selbst: Vielleicht ist dies Ihr neues Zuhause.',
    luxury: 'Eine seltene Gelegenheit für anspruchsvolle Käufer; private Besichtigungen auf Anfrage.',
  },
  featureLabels: {
    pool: 'Swimmingpool',
    private_pool: 'privater Pool',
    communal_pool: 'Gemeinschaftspool',
    garden: 'Garten',
    terrace: 'Terrasse',
    balcony: 'Balkon',
    roof_terrace: 'Dachterrasse',
    bbq: 'Grillplatz',
    sea_view: 'Meerblick',
    mountain_view: 'Bergblick',
    golf_view: 'Golfblick',
    beachfront: 'Strandlage',
    golf_front: 'Lage direkt am Golfplatz',
    elevator: 'Aufzug',
    parking: 'Parkplatz',
    garage: 'Garage',
    storage_room: 'Abstellraum',
    gated_community: 'bewachte Wohnanlage',
    concierge: 'Concierge',
    gym: 'Fitnessraum',
    air_conditioning: 'Klimaanlage',
    heating: 'Heizung',
    underfloor_heating: 'Fußbodenheizung',
    fireplace: 'Kamin',
    solar_panels: 'Solaranlage',
    alarm: 'Alarmanlage',
    fitted_kitchen: 'Einbauküche',
    wheelchair_access: 'rollstuhlgerechter Zugang',
    pets_allowed: 'Haustiere erlaubt',
    sauna: 'Sauna',
    jacuzzi: 'Whirlpool',
    guest_apartment: 'Gästewohnung',
  },
};

const FR: LanguagePack = {
  locale: 'fr-FR',
  types: {
    apartment: 'appartement',
    house: 'maison',
    villa: 'villa',
    townhouse: 'maison mitoyenne',
    penthouse: 'penthouse',
    studio: 'studio',
    duplex: 'duplex',
    land: 'terrain',
    commercial: 'local commercial',
    office: 'bureau',
    garage: 'garage',
    other: 'bien',
  },
  headline: (type, operation, place) => `${type} à ${operation === 'sale' ? 'vendre' : 'louer'} à ${place}`,
  opening: {
    neutral: (h) => `${capitalise(h)}.`,
    warm: (h) => `Bienvenue chez vous : ${h}.`,
    luxury: (h) => `Exclusivité et élégance : ${h}, pour un art de vivre d’exception.`,
  },
  bedrooms: plural('chambre', 'chambres'),
  bathrooms: plural('salle de bains', 'salles de bains'),
  rooms: (parts) => `Le bien dispose de ${parts.join(' et ')}.`,
  livingArea: (area) => `La surface habitable est de ${area}.`,
  plotArea: (area) => `Le terrain mesure ${area}.`,
  sqftUnit: 'ft²',
  features: (list) => `Prestations : ${list}.`,
  and: 'et',
  energy: (rating) => `Classe énergie : ${rating}.`,
  salePrice: (price) => `Prix : ${price}.`,
  rentPrice: (price, period) => `Loyer : ${price} par ${period}.`,
  periods: { month: 'mois', week: 'semaine', day: 'jour' },
  closing: {
    neutral: 'Contactez-nous pour plus d’informations ou pour organiser une visite.',
    warm: 'Venez le découvrir : ce sera peut-être votre prochain chez-vous.',
    luxury: 'Une opportunité rare pour les plus exigeants ; visites privées sur demande.',
  },
  featureLabels: {
    pool: 'piscine',
    private_pool: 'piscine privée',
    communal_pool: 'piscine commune',
    garden: 'jardin',
    terrace: 'terrasse',
    balcony: 'balcon',
    roof_terrace: 'toit-terrasse',
    bbq: 'barbecue',
    sea_view: 'vue mer',
    mountain_view: 'vue montagne',
    golf_view: 'vue golf',
    beachfront: 'front de mer',
    golf_front: 'bord de golf',
    elevator: 'ascenseur',
    parking: 'parking',
    garage: 'garage',
    storage_room: 'cellier',
    gated_community: 'résidence fermée',
    concierge: 'conciergerie',
    gym: 'salle de sport',
    air_conditioning: 'climatisation',
    heating: 'chauffage',
    underfloor_heating: 'chauffage au sol',
    fireplace: 'cheminée',
    solar_panels: 'panneaux solaires',
    alarm: 'alarme',
    fitted_kitchen: 'cuisine équipée',
    wheelchair_access: 'accès fauteuil roulant',
    pets_allowed: 'animaux acceptés',
    sauna: 'sauna',
    jacuzzi: 'jacuzzi',
    guest_apartment: 'appartement d’amis',
  },
};

const PACKS: Record<DescriptionLanguage, LanguagePack> = { en: EN, es: ES, it: IT, pt: PT, de: DE, fr: FR };

function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

const toNumber = (value: string | number | null): number | null => {
  if (value === null) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
};

/** `sea_view` in the language, or the slug with `_` → space when the language has no label. */
export function featureLabel(language: DescriptionLanguage, slug: string): string {
  return PACKS[language].featureLabels[slug] ?? slug.replace(/_/g, ' ');
}

function joinList(items: string[], and: string): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${and} ${items[items.length - 1]}`;
}

/** The sentences of the description, in order (before the length cut). */
export function descriptionSentences(
  listing: DescribedListing,
  language: DescriptionLanguage,
  tone: DescriptionTone,
): string[] {
  const pack = PACKS[language];
  const number = (n: number, digits = 0) =>
    new Intl.NumberFormat(pack.locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(n);
  const type = pack.types[listing.propertyType] ?? listing.propertyType.replace(/_/g, ' ');
  const place = listing.community ? `${listing.community}, ${listing.city}` : listing.city;
  const operation = listing.operation === 'rent' ? 'rent' : 'sale';
  const sentences = [pack.opening[tone](pack.headline(type, operation, place))];

  const bedrooms = listing.bedrooms;
  const bathrooms = toNumber(listing.bathrooms);
  const rooms: string[] = [];
  if (bedrooms !== null && bedrooms > 0) rooms.push(pack.bedrooms(number(bedrooms), bedrooms));
  if (bathrooms !== null && bathrooms > 0) rooms.push(pack.bathrooms(number(bathrooms, 1), bathrooms));
  if (rooms.length > 0) sentences.push(pack.rooms(rooms));

  const unit = listing.areaUnit === 'sqft' ? pack.sqftUnit : 'm²';
  const living = toNumber(listing.livingArea);
  if (living !== null && living > 0) sentences.push(pack.livingArea(`${number(living)} ${unit}`));
  const plot = toNumber(listing.plotArea);
  if (plot !== null && plot > 0) sentences.push(pack.plotArea(`${number(plot)} ${unit}`));

  const features = [...new Set(listing.features)].map((slug) => featureLabel(language, slug));
  if (features.length > 0) sentences.push(pack.features(joinList(features, pack.and)));

  if (listing.energyRating && listing.energyRating !== 'in_progress' && listing.energyRating !== 'exempt') {
    sentences.push(pack.energy(listing.energyRating));
  }

  const price = toNumber(listing.price);
  if (price !== null && price > 0) {
    const amount = formatMoney(pack.locale, price, listing.currency);
    sentences.push(
      operation === 'rent'
        ? pack.rentPrice(amount, pack.periods[listing.rentPeriod ?? 'month'] ?? pack.periods.month)
        : pack.salePrice(amount),
    );
  }
  sentences.push(pack.closing[tone]);
  return sentences;
}

function formatMoney(locale: string, amount: number, currency: string): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(amount);
  } catch {
    // a code Intl does not know: the number and the code
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(amount)} ${currency}`;
  }
}

/**
 * `text` in at most `maxLength` characters: whole when it fits, else up to the last sentence end
 * that fits, else up to the last word end that fits (a single word longer than that: cut hard).
 */
export function fitToLength(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const head = text.slice(0, maxLength + 1);
  const sentenceEnd = head.lastIndexOf('. ');
  if (sentenceEnd > 0) return text.slice(0, sentenceEnd + 1);
  const wordEnd = head.lastIndexOf(' ');
  if (wordEnd > 0) return text.slice(0, wordEnd).replace(/[\s,:;]+$/, '');
  return text.slice(0, maxLength);
}

/** The description of `listing` in `options.language` and `options.tone`, ≤ `options.maxLength`. */
export function describeListing(listing: DescribedListing, options: DescriptionOptions): string {
  return fitToLength(
    descriptionSentences(listing, options.language, options.tone).join(' '),
    options.maxLength,
  );
}
