'use strict';
// Issue 18's data (bench/README.md "Issue 18: search"): one agency of BENCH_LEADS leads (seed:demo)
// whose CRM history is replaced by BENCH_SEARCH_EVENTS (1,000,000) searchable events, generated
// deterministically (seeded generator) from templates in six languages: notes, calls (transcript,
// detected language, and an analysis on two calls in three), chat messages, emails and tasks. 200
// planted topics ("bodega, Gaucín": a subject in the topic's language and a village) sit in the
// events of a known 5-20 leads each; the queries of `crm-search-*` and the recall are drawn from them.
//
// The rows go straight into the CRM tables (multi-row INSERT … SELECT from unnest), and their
// passages into `search_chunk` with the API's own `insertChunksStatement` and `chunkText` (built
// modules), so the index holds what the indexer would have written. The chunk table's indexes are
// dropped for the load and rebuilt after with their own definitions (a GIN index filled row by row
// costs several times its build). The database is kept between runs (see `searchDatabase`).
const path = require('node:path');
const { Client } = require('pg');
const { ROOT, log, seededRandom, round } = require('./lib');

const env = process.env;
/** Searchable events in the agency (notes, transcripts, analyses, messages, emails, tasks). */
const EVENTS = Number(env.BENCH_SEARCH_EVENTS ?? 1_000_000);
/** Bump when the generated data changes: a kept database built by another version is rebuilt. */
const DATA_VERSION = 3;
/** Events per insert batch; loaders working at once (one connection each). */
const BATCH = 10_000;
const LOADERS = 2;
const SERVER_URL = env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const built = (file) => require(path.join(ROOT, 'dist/libs', file));

// ---------------------------------------------------------------- languages

/** The leads' languages and their shares (issue 18 benchmark: about half Spanish, a quarter English). */
const LANGUAGES = [
  ['es', 'es-ES', 0.5],
  ['en', 'en-GB', 0.25],
  ['it', 'it-IT', 0.0625],
  ['pt', 'pt-PT', 0.0625],
  ['fr', 'fr-FR', 0.0625],
  ['de', 'de-DE', 0.0625],
];
const TAG = Object.fromEntries(LANGUAGES.map(([code, tag]) => [code, tag]));

/** Places of the ordinary events (never a planted topic's village). */
const AREAS = [
  'Marbella',
  'Málaga',
  'Estepona',
  'Nerja',
  'Fuengirola',
  'Benalmádena',
  'Torremolinos',
  'Mijas',
  'Sotogrande',
  'Manilva',
  'Nueva Andalucía',
  'San Pedro de Alcántara',
  'Puerto Banús',
  'Torre del Mar',
  'Rincón de la Victoria',
  'Alhaurín el Grande',
];

/**
 * Per language: the words of the slots and the sentences of each kind of event. Slots: {type},
 * {area}, {area2}, {budget}, {beds}, {feature}, {objection}, {day}. `plant`: how a planted topic is
 * said ({subject}, {place}, and {estate} for the typo topics).
 */
const BANKS = {
  en: {
    agent: 'Agent',
    client: 'Client',
    types: [
      'apartment',
      'villa',
      'penthouse',
      'townhouse',
      'studio',
      'country house',
      'duplex',
      'ground-floor flat',
    ],
    features: [
      'a private pool',
      'a garden',
      'a large terrace',
      'sea views',
      'a garage',
      'a lift',
      'air conditioning',
      'a storage room',
      'mountain views',
      'a communal pool',
    ],
    objections: [
      'the price is too high',
      'the community fees are too high',
      'the street is noisy',
      'it is too far from the beach',
      'it needs a full renovation',
      'the mortgage is not approved yet',
      'they have to sell their own home first',
      'the partner is not convinced',
      'the IBI tax seems high',
      'the kitchen is too small',
    ],
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
    note: [
      'Called the client, looking for a {type} in {area} with {feature}.',
      'Budget up to {budget}, ideally {beds} bedrooms.',
      'Main objection: {objection}.',
      'Viewing booked for {day} at the {type} in {area}.',
      'Wants to move within six months, mortgage pre-approved for {budget}.',
      'Sent three new listings in {area}, waiting for feedback.',
      'They liked the {type} but {objection}.',
      'Second viewing on {day}, bring the floor plans and the energy certificate.',
      'Prefers {area} over {area2} because of the schools.',
      'Offer of {budget} discussed, the owner asks for more.',
      'Follow up after the weekend, they are comparing with another agency.',
      'Needs {beds} bedrooms and {feature}, flexible on the area.',
    ],
    message: [
      'Hi, is the {type} in {area} still available?',
      'Can we see it on {day}?',
      'Our budget is around {budget}.',
      'Thanks for the photos, we love that it has {feature}.',
      'Sorry, but {objection}.',
      'Do you have anything with {beds} bedrooms in {area}?',
      'Perfect, see you on {day} at the property.',
      'I will send you the new listings in {area} tonight.',
    ],
    subjects: [
      'Viewing on {day}',
      'New listings in {area}',
      'Your search: {type} in {area}',
      'Offer for the {type} in {area}',
      'Documents for the mortgage',
    ],
    email: [
      'Following our call, here are the details of the {type} in {area}.',
      'The asking price is {budget}, negotiable.',
      'It has {beds} bedrooms and {feature}.',
      'Please let me know if {day} suits you for the viewing.',
      'I understand that {objection}, we can discuss it.',
      'Attached are the floor plans and the energy certificate.',
      'The notary appointment can be arranged within four weeks.',
    ],
    greeting: 'Dear client,',
    closing: 'Kind regards,',
    tasks: [
      'Call back about the {type} in {area}',
      'Send listings in {area}',
      'Book the viewing for {day}',
      'Ask for the mortgage pre-approval',
      'Follow up on the offer of {budget}',
      'Request the documents from the owner',
    ],
    agentLines: [
      'Good morning, I am calling about the {type} in {area}.',
      'What is your budget?',
      'How many bedrooms do you need?',
      'We have a {type} in {area} with {feature}.',
      'Would {day} work for a viewing?',
      'I understand, the owner may be flexible.',
      'I will send you the details by email.',
      'Is the mortgage already approved?',
    ],
    clientLines: [
      'Hello, yes, we saw it on the portal.',
      'Up to {budget}, more or less.',
      'At least {beds} bedrooms.',
      'Honestly, {objection}.',
      '{day} is fine, in the afternoon.',
      'We also want {feature}.',
      'We are still waiting for the bank.',
      'Okay, thank you, talk soon.',
    ],
    summaries: [
      'The client is looking for a {type} in {area} with a budget of {budget}.',
      'Client interested in the {type} in {area}, wants a viewing on {day}.',
      'The client hesitates because {objection}.',
    ],
    nextSteps: [
      'Book the viewing for {day}',
      'Send three listings in {area}',
      'Call back after the bank answers',
    ],
    tips: [
      'Confirm the budget early',
      'Ask about the timeline',
      'Answer the price objection with comparables',
      'Offer two time slots for the viewing',
    ],
    plant: [
      'They asked about the {subject} in {place}.',
      'Key point for them: {subject}, {place}.',
      'What they really want is the {subject} in {place}.',
    ],
  },
  es: {
    agent: 'Agente',
    client: 'Cliente',
    types: ['piso', 'chalet', 'ático', 'adosado', 'estudio', 'cortijo', 'dúplex', 'bajo con jardín'],
    features: [
      'piscina privada',
      'jardín',
      'terraza grande',
      'vistas al mar',
      'garaje',
      'ascensor',
      'aire acondicionado',
      'trastero',
      'vistas a la montaña',
      'piscina comunitaria',
    ],
    objections: [
      'el precio es demasiado alto',
      'la comunidad es muy cara',
      'la calle es ruidosa',
      'está lejos de la playa',
      'necesita una reforma integral',
      'la hipoteca todavía no está aprobada',
      'primero tienen que vender su casa',
      'la pareja no está convencida',
      'el IBI parece alto',
      'la cocina es pequeña',
    ],
    days: ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'],
    note: [
      'Llamé al cliente, busca {type} en {area} con {feature}.',
      'Presupuesto hasta {budget}, idealmente {beds} dormitorios.',
      'Objeción principal: {objection}.',
      'Visita el {day} al {type} de {area}.',
      'Quiere mudarse en seis meses, hipoteca preaprobada de {budget}.',
      'Le envié tres inmuebles nuevos en {area}, espera respuesta.',
      'Le gustó el {type} pero {objection}.',
      'Segunda visita el {day}, llevar planos y certificado energético.',
      'Prefiere {area} a {area2} por los colegios.',
      'Hablamos de una oferta de {budget}, el propietario pide más.',
      'Seguimiento después del fin de semana, compara con otra agencia.',
      'Necesita {beds} dormitorios y {feature}, flexible con la zona.',
    ],
    message: [
      'Hola, ¿sigue disponible el {type} de {area}?',
      '¿Podemos verlo el {day}?',
      'Nuestro presupuesto ronda los {budget}.',
      'Gracias por las fotos, nos encanta que tenga {feature}.',
      'Lo siento, pero {objection}.',
      '¿Tienes algo con {beds} dormitorios en {area}?',
      'Perfecto, nos vemos el {day} en la vivienda.',
      'Esta noche te mando las novedades de {area}.',
    ],
    subjects: [
      'Visita del {day}',
      'Novedades en {area}',
      'Su búsqueda: {type} en {area}',
      'Oferta por el {type} de {area}',
      'Documentación para la hipoteca',
    ],
    email: [
      'Tras nuestra llamada, le envío los detalles del {type} en {area}.',
      'El precio de salida es {budget}, negociable.',
      'Tiene {beds} dormitorios y {feature}.',
      'Indíqueme si el {day} le viene bien para la visita.',
      'Entiendo que {objection}, podemos hablarlo.',
      'Adjunto los planos y el certificado energético.',
      'La cita en la notaría se puede fijar en cuatro semanas.',
    ],
    greeting: 'Estimado cliente:',
    closing: 'Un saludo,',
    tasks: [
      'Volver a llamar por el {type} de {area}',
      'Enviar inmuebles en {area}',
      'Concertar la visita del {day}',
      'Pedir la preaprobación de la hipoteca',
      'Seguimiento de la oferta de {budget}',
      'Pedir la documentación al propietario',
    ],
    agentLines: [
      'Buenos días, le llamo por el {type} de {area}.',
      '¿Qué presupuesto tiene?',
      '¿Cuántos dormitorios necesita?',
      'Tenemos un {type} en {area} con {feature}.',
      '¿Le viene bien el {day} para una visita?',
      'Entiendo, el propietario puede ser flexible.',
      'Le mando los detalles por correo.',
      '¿Tiene ya la hipoteca aprobada?',
    ],
    clientLines: [
      'Hola, sí, lo vimos en el portal.',
      'Hasta {budget}, más o menos.',
      'Por lo menos {beds} dormitorios.',
      'Sinceramente, {objection}.',
      'El {day} está bien, por la tarde.',
      'También queremos {feature}.',
      'Seguimos esperando al banco.',
      'Vale, gracias, hablamos.',
    ],
    summaries: [
      'El cliente busca {type} en {area} con un presupuesto de {budget}.',
      'Cliente interesado en el {type} de {area}, quiere visitarlo el {day}.',
      'El cliente duda porque {objection}.',
    ],
    nextSteps: [
      'Concertar la visita del {day}',
      'Enviar tres inmuebles en {area}',
      'Llamar cuando responda el banco',
    ],
    tips: [
      'Confirmar el presupuesto al principio',
      'Preguntar por los plazos',
      'Responder a la objeción del precio con comparables',
      'Proponer dos horarios para la visita',
    ],
    plant: [
      'Preguntaron por: {subject} en {place}.',
      'Punto clave para ellos: {subject}, {place}.',
      'Lo que de verdad quieren: {subject} en {place}.',
    ],
  },
  it: {
    agent: 'Agente',
    client: 'Cliente',
    types: [
      'appartamento',
      'villa',
      'attico',
      'villetta a schiera',
      'monolocale',
      'casale',
      'duplex',
      'piano terra',
    ],
    features: [
      'piscina privata',
      'giardino',
      'terrazzo grande',
      'vista mare',
      'box auto',
      'ascensore',
      'aria condizionata',
      'ripostiglio',
      'vista sulle montagne',
      'piscina condominiale',
    ],
    objections: [
      'il prezzo è troppo alto',
      'le spese condominiali sono alte',
      'la strada è rumorosa',
      'è lontano dalla spiaggia',
      'serve una ristrutturazione completa',
      'il mutuo non è ancora approvato',
      'devono prima vendere casa loro',
      'il partner non è convinto',
      'le tasse sembrano alte',
      'la cucina è piccola',
    ],
    days: ['lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato', 'domenica'],
    note: [
      'Chiamato il cliente, cerca {type} a {area} con {feature}.',
      'Budget fino a {budget}, idealmente {beds} camere.',
      'Obiezione principale: {objection}.',
      'Visita fissata per {day} al {type} di {area}.',
      'Vuole trasferirsi entro sei mesi, mutuo preapprovato di {budget}.',
      'Inviati tre nuovi immobili a {area}, in attesa di risposta.',
      'Gli è piaciuto il {type} ma {objection}.',
      'Seconda visita {day}, portare planimetrie e certificato energetico.',
      'Preferisce {area} a {area2} per le scuole.',
      'Discussa un offerta di {budget}, il proprietario chiede di più.',
    ],
    message: [
      'Salve, il {type} a {area} è ancora disponibile?',
      'Possiamo vederlo {day}?',
      'Il nostro budget è di circa {budget}.',
      'Grazie per le foto, ci piace che abbia {feature}.',
      'Mi dispiace, ma {objection}.',
      'Ha qualcosa con {beds} camere a {area}?',
    ],
    subjects: [
      'Visita di {day}',
      'Novità a {area}',
      'La sua ricerca: {type} a {area}',
      'Documenti per il mutuo',
    ],
    email: [
      'Come da telefonata, ecco i dettagli del {type} a {area}.',
      'Il prezzo richiesto è {budget}, trattabile.',
      'Ha {beds} camere e {feature}.',
      'Mi faccia sapere se {day} va bene per la visita.',
      'Capisco che {objection}, possiamo parlarne.',
      'In allegato le planimetrie e il certificato energetico.',
    ],
    greeting: 'Gentile cliente,',
    closing: 'Cordiali saluti,',
    tasks: [
      'Richiamare per il {type} a {area}',
      'Inviare immobili a {area}',
      'Fissare la visita di {day}',
      'Chiedere la preapprovazione del mutuo',
      'Seguire l offerta di {budget}',
    ],
    agentLines: [
      'Buongiorno, la chiamo per il {type} a {area}.',
      'Qual è il suo budget?',
      'Quante camere le servono?',
      'Abbiamo un {type} a {area} con {feature}.',
      '{day} va bene per una visita?',
      'Capisco, il proprietario può essere flessibile.',
    ],
    clientLines: [
      'Salve, sì, l abbiamo visto sul portale.',
      'Fino a {budget}, più o meno.',
      'Almeno {beds} camere.',
      'Sinceramente, {objection}.',
      '{day} va bene, di pomeriggio.',
      'Vorremmo anche {feature}.',
    ],
    summaries: [
      'Il cliente cerca {type} a {area} con un budget di {budget}.',
      'Il cliente esita perché {objection}.',
    ],
    nextSteps: ['Fissare la visita di {day}', 'Inviare tre immobili a {area}'],
    tips: ['Confermare subito il budget', 'Chiedere i tempi', 'Proporre due orari per la visita'],
    plant: [
      'Hanno chiesto di: {subject} a {place}.',
      'Punto chiave per loro: {subject}, {place}.',
      'Quello che vogliono davvero: {subject} a {place}.',
    ],
  },
  pt: {
    agent: 'Agente',
    client: 'Cliente',
    types: [
      'apartamento',
      'moradia',
      'penthouse',
      'moradia em banda',
      'estúdio',
      'quinta',
      'duplex',
      'rés-do-chão',
    ],
    features: [
      'piscina privada',
      'jardim',
      'terraço grande',
      'vista mar',
      'garagem',
      'elevador',
      'ar condicionado',
      'arrecadação',
      'vista serra',
      'piscina comum',
    ],
    objections: [
      'o preço é demasiado alto',
      'o condomínio é caro',
      'a rua é barulhenta',
      'fica longe da praia',
      'precisa de obras profundas',
      'o crédito ainda não foi aprovado',
      'primeiro têm de vender a casa deles',
      'o parceiro não está convencido',
      'o IMI parece alto',
      'a cozinha é pequena',
    ],
    days: ['segunda', 'terça', 'quarta', 'quinta-feira', 'sexta', 'sábado', 'domingo'],
    note: [
      'Liguei ao cliente, procura {type} em {area} com {feature}.',
      'Orçamento até {budget}, de preferência {beds} quartos.',
      'Objeção principal: {objection}.',
      'Visita marcada para {day} ao {type} de {area}.',
      'Quer mudar-se em seis meses, crédito pré-aprovado de {budget}.',
      'Enviei três imóveis novos em {area}, aguardo resposta.',
      'Gostou do {type} mas {objection}.',
      'Prefere {area} a {area2} por causa das escolas.',
      'Falámos de uma proposta de {budget}, o proprietário quer mais.',
    ],
    message: [
      'Olá, o {type} em {area} ainda está disponível?',
      'Podemos ver na {day}?',
      'O nosso orçamento é cerca de {budget}.',
      'Obrigado pelas fotos, adoramos que tenha {feature}.',
      'Desculpe, mas {objection}.',
      'Tem alguma coisa com {beds} quartos em {area}?',
    ],
    subjects: [
      'Visita de {day}',
      'Novidades em {area}',
      'A sua pesquisa: {type} em {area}',
      'Documentos para o crédito',
    ],
    email: [
      'Na sequência da nossa chamada, seguem os detalhes do {type} em {area}.',
      'O preço pedido é {budget}, negociável.',
      'Tem {beds} quartos e {feature}.',
      'Diga-me se {day} lhe convém para a visita.',
      'Compreendo que {objection}, podemos falar.',
      'Em anexo as plantas e o certificado energético.',
    ],
    greeting: 'Caro cliente,',
    closing: 'Com os melhores cumprimentos,',
    tasks: [
      'Voltar a ligar sobre o {type} em {area}',
      'Enviar imóveis em {area}',
      'Marcar a visita de {day}',
      'Pedir a pré-aprovação do crédito',
      'Acompanhar a proposta de {budget}',
    ],
    agentLines: [
      'Bom dia, ligo por causa do {type} em {area}.',
      'Qual é o seu orçamento?',
      'Quantos quartos precisa?',
      'Temos um {type} em {area} com {feature}.',
      '{day} dá jeito para uma visita?',
      'Compreendo, o proprietário pode ser flexível.',
    ],
    clientLines: [
      'Olá, sim, vimos no portal.',
      'Até {budget}, mais ou menos.',
      'Pelo menos {beds} quartos.',
      'Sinceramente, {objection}.',
      '{day} está bem, à tarde.',
      'Também queremos {feature}.',
    ],
    summaries: [
      'O cliente procura {type} em {area} com um orçamento de {budget}.',
      'O cliente hesita porque {objection}.',
    ],
    nextSteps: ['Marcar a visita de {day}', 'Enviar três imóveis em {area}'],
    tips: ['Confirmar o orçamento cedo', 'Perguntar pelos prazos', 'Propor dois horários para a visita'],
    plant: [
      'Perguntaram por: {subject} em {place}.',
      'Ponto-chave para eles: {subject}, {place}.',
      'O que querem mesmo: {subject} em {place}.',
    ],
  },
  fr: {
    agent: 'Agent',
    client: 'Client',
    types: [
      'appartement',
      'villa',
      'penthouse',
      'maison de ville',
      'studio',
      'mas',
      'duplex',
      'rez-de-jardin',
    ],
    features: [
      'une piscine privée',
      'un jardin',
      'une grande terrasse',
      'vue sur mer',
      'un garage',
      'un ascenseur',
      'la climatisation',
      'un cellier',
      'vue sur les montagnes',
      'une piscine commune',
    ],
    objections: [
      'le prix est trop élevé',
      'les charges de copropriété sont élevées',
      'la rue est bruyante',
      'c est trop loin de la plage',
      'il faut tout rénover',
      'le prêt n est pas encore accordé',
      'ils doivent d abord vendre leur maison',
      'le conjoint n est pas convaincu',
      'la taxe foncière semble élevée',
      'la cuisine est petite',
    ],
    days: ['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche'],
    note: [
      'Appelé le client, cherche {type} à {area} avec {feature}.',
      'Budget jusqu à {budget}, idéalement {beds} chambres.',
      'Objection principale : {objection}.',
      'Visite prévue {day} pour le {type} à {area}.',
      'Veut déménager sous six mois, prêt préaccordé de {budget}.',
      'Envoyé trois nouveaux biens à {area}, en attente de retour.',
      'Le {type} leur a plu mais {objection}.',
      'Préfère {area} à {area2} pour les écoles.',
      'Offre de {budget} discutée, le propriétaire demande plus.',
    ],
    message: [
      'Bonjour, le {type} à {area} est-il toujours disponible ?',
      'Pouvons-nous le voir {day} ?',
      'Notre budget est d environ {budget}.',
      'Merci pour les photos, nous aimons qu il y ait {feature}.',
      'Désolé, mais {objection}.',
      'Avez-vous quelque chose avec {beds} chambres à {area} ?',
    ],
    subjects: [
      'Visite de {day}',
      'Nouveautés à {area}',
      'Votre recherche : {type} à {area}',
      'Documents pour le prêt',
    ],
    email: [
      'Suite à notre appel, voici les détails du {type} à {area}.',
      'Le prix demandé est de {budget}, négociable.',
      'Il a {beds} chambres et {feature}.',
      'Dites-moi si {day} vous convient pour la visite.',
      'Je comprends que {objection}, nous pouvons en parler.',
      'Ci-joint les plans et le diagnostic énergétique.',
    ],
    greeting: 'Cher client,',
    closing: 'Bien cordialement,',
    tasks: [
      'Rappeler pour le {type} à {area}',
      'Envoyer des biens à {area}',
      'Organiser la visite de {day}',
      'Demander l accord de principe du prêt',
      'Relancer l offre de {budget}',
    ],
    agentLines: [
      'Bonjour, je vous appelle pour le {type} à {area}.',
      'Quel est votre budget ?',
      'De combien de chambres avez-vous besoin ?',
      'Nous avons un {type} à {area} avec {feature}.',
      '{day}, cela vous irait pour une visite ?',
      'Je comprends, le propriétaire peut être flexible.',
    ],
    clientLines: [
      'Bonjour, oui, nous l avons vu sur le portail.',
      'Jusqu à {budget}, à peu près.',
      'Au moins {beds} chambres.',
      'Franchement, {objection}.',
      '{day}, c est bien, l après-midi.',
      'Nous voulons aussi {feature}.',
    ],
    summaries: [
      'Le client cherche {type} à {area} avec un budget de {budget}.',
      'Le client hésite car {objection}.',
    ],
    nextSteps: ['Organiser la visite de {day}', 'Envoyer trois biens à {area}'],
    tips: ['Confirmer le budget tôt', 'Demander le calendrier', 'Proposer deux créneaux pour la visite'],
    plant: [
      'Ils ont demandé : {subject} à {place}.',
      'Point clé pour eux : {subject}, {place}.',
      'Ce qu ils veulent vraiment : {subject} à {place}.',
    ],
  },
  de: {
    agent: 'Makler',
    client: 'Kunde',
    types: [
      'Wohnung',
      'Villa',
      'Penthouse',
      'Reihenhaus',
      'Studio',
      'Landhaus',
      'Maisonette',
      'Gartenwohnung',
    ],
    features: [
      'privatem Pool',
      'Garten',
      'großer Terrasse',
      'Meerblick',
      'Garage',
      'Aufzug',
      'Klimaanlage',
      'Abstellraum',
      'Bergblick',
      'Gemeinschaftspool',
    ],
    objections: [
      'der Preis ist zu hoch',
      'das Hausgeld ist hoch',
      'die Straße ist laut',
      'es ist zu weit vom Strand',
      'es braucht eine Komplettsanierung',
      'die Finanzierung ist noch nicht genehmigt',
      'sie müssen erst ihr Haus verkaufen',
      'der Partner ist nicht überzeugt',
      'die Grundsteuer scheint hoch',
      'die Küche ist klein',
    ],
    days: ['Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag', 'Sonntag'],
    note: [
      'Kunde angerufen, sucht {type} in {area} mit {feature}.',
      'Budget bis {budget}, am liebsten {beds} Schlafzimmer.',
      'Haupteinwand: {objection}.',
      'Besichtigung am {day} für die {type} in {area}.',
      'Will in sechs Monaten umziehen, Finanzierung über {budget} vorab zugesagt.',
      'Drei neue Objekte in {area} geschickt, warte auf Antwort.',
      'Die {type} hat gefallen, aber {objection}.',
      'Bevorzugt {area} gegenüber {area2} wegen der Schulen.',
      'Angebot von {budget} besprochen, der Eigentümer will mehr.',
    ],
    message: [
      'Hallo, ist die {type} in {area} noch verfügbar?',
      'Können wir sie am {day} ansehen?',
      'Unser Budget liegt bei etwa {budget}.',
      'Danke für die Fotos, toll mit {feature}.',
      'Leider {objection}.',
      'Haben Sie etwas mit {beds} Schlafzimmern in {area}?',
    ],
    subjects: [
      'Besichtigung am {day}',
      'Neue Objekte in {area}',
      'Ihre Suche: {type} in {area}',
      'Unterlagen für die Finanzierung',
    ],
    email: [
      'Wie besprochen, hier die Details zur {type} in {area}.',
      'Der Angebotspreis beträgt {budget}, verhandelbar.',
      'Sie hat {beds} Schlafzimmer und {feature}.',
      'Bitte sagen Sie mir, ob der {day} für die Besichtigung passt.',
      'Ich verstehe, dass {objection}, wir können darüber sprechen.',
      'Anbei die Grundrisse und der Energieausweis.',
    ],
    greeting: 'Sehr geehrter Kunde,',
    closing: 'Mit freundlichen Grüßen,',
    tasks: [
      'Wegen der {type} in {area} zurückrufen',
      'Objekte in {area} schicken',
      'Besichtigung am {day} vereinbaren',
      'Finanzierungszusage anfragen',
      'Angebot von {budget} nachfassen',
    ],
    agentLines: [
      'Guten Tag, ich rufe wegen der {type} in {area} an.',
      'Wie hoch ist Ihr Budget?',
      'Wie viele Schlafzimmer brauchen Sie?',
      'Wir haben eine {type} in {area} mit {feature}.',
      'Passt Ihnen der {day} für eine Besichtigung?',
      'Verstehe, der Eigentümer ist vielleicht flexibel.',
    ],
    clientLines: [
      'Hallo, ja, wir haben sie im Portal gesehen.',
      'Bis {budget}, ungefähr.',
      'Mindestens {beds} Schlafzimmer.',
      'Ehrlich gesagt, {objection}.',
      'Der {day} passt, am Nachmittag.',
      'Wir möchten auch {feature}.',
    ],
    summaries: [
      'Der Kunde sucht eine {type} in {area} mit einem Budget von {budget}.',
      'Der Kunde zögert, weil {objection}.',
    ],
    nextSteps: ['Besichtigung am {day} vereinbaren', 'Drei Objekte in {area} schicken'],
    tips: ['Budget früh klären', 'Nach dem Zeitrahmen fragen', 'Zwei Termine für die Besichtigung anbieten'],
    plant: [
      'Sie fragten nach: {subject} in {place}.',
      'Wichtig für sie: {subject}, {place}.',
      'Was sie wirklich wollen: {subject} in {place}.',
    ],
  },
};

// ---------------------------------------------------------------- planted topics

/**
 * The planted subjects, each in en, es, it, pt, fr, de (amenities and issues a real-estate
 * thesaurus is likely to group; none of their words is in the ordinary templates).
 */
const SUBJECTS = [
  ['wine cellar', 'bodega', 'cantina', 'adega', 'cave à vin', 'Weinkeller'],
  ['fireplace', 'chimenea', 'camino', 'lareira', 'cheminée', 'Kamin'],
  ['olive grove', 'olivar', 'uliveto', 'olival', 'oliveraie', 'Olivenhain'],
  ['vineyard', 'viñedo', 'vigneto', 'vinha', 'vignoble', 'Weinberg'],
  ['horse stables', 'cuadras', 'scuderia', 'estábulos', 'écuries', 'Pferdestall'],
  ['tennis court', 'pista de tenis', 'campo da tennis', 'campo de ténis', 'court de tennis', 'Tennisplatz'],
  ['greenhouse', 'invernadero', 'serra', 'estufa', 'serre', 'Gewächshaus'],
  ['orchard', 'huerto', 'frutteto', 'pomar', 'verger', 'Obstgarten'],
  ['guest house', 'casa de invitados', 'dépendance', 'casa de hóspedes', 'maison d amis', 'Gästehaus'],
  ['home cinema', 'cine en casa', 'home theater', 'cinema em casa', 'salle de cinéma', 'Heimkino'],
  [
    'solar panels',
    'placas solares',
    'pannelli solari',
    'painéis solares',
    'panneaux solaires',
    'Solaranlage',
  ],
  [
    'underfloor heating',
    'suelo radiante',
    'riscaldamento a pavimento',
    'piso radiante',
    'chauffage au sol',
    'Fußbodenheizung',
  ],
  ['water well', 'pozo de agua', 'pozzo artesiano', 'poço de água', 'puits artésien', 'Brunnen'],
  ['mooring berth', 'amarre', 'posto barca', 'amarração', 'anneau d amarrage', 'Bootsliegeplatz'],
  ['walk-in wardrobe', 'vestidor', 'cabina armadio', 'closet', 'dressing', 'Ankleidezimmer'],
  [
    'panic room',
    'habitación del pánico',
    'stanza blindata',
    'quarto do pânico',
    'pièce sécurisée',
    'Schutzraum',
  ],
  [
    'wheelchair access',
    'acceso para silla de ruedas',
    'accesso per sedia a rotelle',
    'acesso para cadeira de rodas',
    'accès fauteuil roulant',
    'rollstuhlgerechter Zugang',
  ],
  ['riding arena', 'picadero', 'maneggio', 'picadeiro', 'manège', 'Reithalle'],
  ['helipad', 'helipuerto', 'eliporto', 'heliporto', 'héliport', 'Hubschrauberlandeplatz'],
  ['koi pond', 'estanque de carpas', 'laghetto delle carpe', 'lago de carpas', 'bassin à carpes', 'Koiteich'],
  ['wood-fired oven', 'horno de leña', 'forno a legna', 'forno a lenha', 'four à bois', 'Holzofen'],
  ['chicken coop', 'gallinero', 'pollaio', 'galinheiro', 'poulailler', 'Hühnerstall'],
  ['beehives', 'colmenas', 'arnie', 'colmeias', 'ruches', 'Bienenstöcke'],
  [
    'recording studio',
    'estudio de grabación',
    'studio di registrazione',
    'estúdio de gravação',
    'studio d enregistrement',
    'Tonstudio',
  ],
  [
    'art studio',
    'taller de pintura',
    'atelier di pittura',
    'ateliê de pintura',
    'atelier d artiste',
    'Künstleratelier',
  ],
  ['dog kennel', 'perrera', 'canile', 'canil', 'chenil', 'Hundezwinger'],
  ['billiard room', 'sala de billar', 'sala biliardo', 'sala de bilhar', 'salle de billard', 'Billardzimmer'],
  ['squash court', 'pista de squash', 'campo da squash', 'campo de squash', 'court de squash', 'Squashhalle'],
  ['observatory', 'observatorio', 'osservatorio', 'observatório', 'observatoire', 'Sternwarte'],
  [
    'cork oak forest',
    'alcornocal',
    'sughereta',
    'montado de sobro',
    'forêt de chênes-lièges',
    'Korkeichenwald',
  ],
  ['almond trees', 'almendros', 'mandorli', 'amendoeiras', 'amandiers', 'Mandelbäume'],
  ['lemon trees', 'limoneros', 'alberi di limone', 'limoeiros', 'citronniers', 'Zitronenbäume'],
  [
    'avocado plantation',
    'plantación de aguacates',
    'piantagione di avocado',
    'plantação de abacates',
    'plantation d avocats',
    'Avocadoplantage',
  ],
  ['water cistern', 'aljibe', 'cisterna interrata', 'cisterna enterrada', 'citerne enterrée', 'Zisterne'],
  [
    'electric car charger',
    'cargador para coche eléctrico',
    'colonnina di ricarica',
    'carregador para carro elétrico',
    'borne de recharge',
    'Wallbox',
  ],
  ['home automation', 'domótica', 'domotica', 'domótica integrada', 'domotique', 'Hausautomation'],
  ['soundproofing', 'insonorización', 'insonorizzazione', 'insonorização', 'insonorisation', 'Schallschutz'],
  [
    'asbestos roof',
    'tejado de amianto',
    'tetto in amianto',
    'telhado de amianto',
    'toiture en amiante',
    'Asbestdach',
  ],
  [
    'termite damage',
    'daños por termitas',
    'danni da termiti',
    'danos de térmitas',
    'dégâts de termites',
    'Termitenschaden',
  ],
  [
    'rising damp',
    'humedades por capilaridad',
    'umidità di risalita',
    'humidade ascensional',
    'remontées capillaires',
    'aufsteigende Feuchtigkeit',
  ],
  [
    'illegal extension',
    'ampliación ilegal',
    'ampliamento abusivo',
    'ampliação ilegal',
    'extension illégale',
    'illegaler Anbau',
  ],
  [
    'tourist licence',
    'licencia turística',
    'licenza turistica',
    'licença de alojamento local',
    'licence touristique',
    'Ferienvermietungslizenz',
  ],
  [
    'golf membership',
    'acción del club de golf',
    'quota del golf club',
    'quota do clube de golfe',
    'adhésion au golf',
    'Golfmitgliedschaft',
  ],
  [
    'boat shed',
    'cobertizo para barcos',
    'rimessa per barche',
    'abrigo para barcos',
    'hangar à bateaux',
    'Bootshaus',
  ],
  [
    'yoga pavilion',
    'pabellón de yoga',
    'padiglione yoga',
    'pavilhão de ioga',
    'pavillon de yoga',
    'Yogapavillon',
  ],
  [
    'infinity pool',
    'piscina desbordante',
    'piscina a sfioro',
    'piscina infinita',
    'piscine à débordement',
    'Infinity-Pool',
  ],
  ['summer kitchen', 'cocina de verano', 'cucina estiva', 'cozinha de verão', 'cuisine d été', 'Sommerküche'],
  [
    'pet-friendly',
    'admite mascotas',
    'animali ammessi',
    'aceita animais',
    'animaux acceptés',
    'haustierfreundlich',
  ],
  ['games room', 'sala de juegos', 'sala giochi', 'sala de jogos', 'salle de jeux', 'Spielzimmer'],
  ['olive oil mill', 'almazara', 'frantoio', 'lagar de azeite', 'moulin à huile', 'Ölmühle'],
];
const SUBJECT_LANGS = ['en', 'es', 'it', 'pt', 'fr', 'de'];

/** Villages of the planted topics, many with accents (each in about five topics). */
const PLACES = [
  'Gaucín',
  'Cómpeta',
  'Frigiliana',
  'Júzcar',
  'Benahavís',
  'Istán',
  'Ojén',
  'Tolox',
  'Casares',
  'Genalguacil',
  'Alozaina',
  'Yunquera',
  'Sayalonga',
  'Árchez',
  'Salares',
  'Sedella',
  'Macharaviaya',
  'Benadalid',
  'Atajate',
  'Jimera',
  'Igualeja',
  'Parauta',
  'Cartajima',
  'Faraján',
  'Pujerra',
  'Jubrique',
  'Algatocín',
  'Benarrabá',
  'Totalán',
  'Comares',
  'Riogordo',
  'Almogía',
  'Alcaucín',
  'Periana',
  'Almáchar',
  'Benamargosa',
  'Moclinejo',
  'Iznate',
  'Benamocarra',
  'Viñuela',
];

/** The typo topics' estates: a name found nowhere else, which the typo query misspells. */
const ESTATES = [
  'Albaricoque',
  'Zarzamora',
  'Tamarindo',
  'Alcaraván',
  'Guadalevín',
  'Almendrales',
  'Azucena',
  'Candelaria',
  'Esmeraldina',
  'Valdelagrana',
  'Hornachuelos',
  'Peñaflorida',
  'Monteclaro',
  'Rosalejo',
  'Solanillo',
  'Cabezuela',
  'Madroñal',
  'Quejigal',
  'Lentiscal',
  'Acebuchal',
  'Algarrobal',
  'Palmitera',
  'Jarandilla',
  'Castañar',
  'Encinilla',
  'Retamar',
  'Tomillar',
  'Romeral',
  'Alhucema',
  'Hinojal',
  'Mirabuenos',
  'Valdecañas',
  'Torrealquería',
  'Cañaveral',
  'Carrascal',
  'Zahareña',
  'Fuenteheridos',
  'Navahermosa',
  'Lagunilla',
  'Peñarrubia',
];

/** Every tenth topic: the class of its query (100 rare, 60 multilingual, 40 typo). */
const CLASSES = [
  'rare',
  'rare',
  'multilingual',
  'typo',
  'rare',
  'multilingual',
  'rare',
  'typo',
  'rare',
  'multilingual',
];

const stripAccents = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');

/** A deterministic misspelling: two letters swapped in the middle, or one dropped, or one doubled. */
function misspell(word, k) {
  const w = stripAccents(word);
  const i = 2 + (k % Math.max(1, w.length - 4));
  if (k % 3 === 0) return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  if (k % 3 === 1) return w.slice(0, i) + w.slice(i + 1);
  return w.slice(0, i) + w[i] + w.slice(i);
}

/** A language drawn by the leads' shares. */
function drawLanguage(random) {
  let r = random();
  for (const [code, , share] of LANGUAGES) {
    r -= share;
    if (r < 0) return code;
  }
  return 'es';
}

/**
 * The agency's leads' languages (by position in `leadIds`, ascending) and the 200 topics: subject,
 * village, language of the planted events, planted leads (5-20 of that language), the query and
 * its class. Deterministic for a given lead count, so a kept database's topics are recomputed.
 */
function plan(leadIds) {
  const random = seededRandom(18);
  const languages = leadIds.map(() => drawLanguage(random));
  const byLanguage = {};
  for (const [i, code] of languages.entries()) (byLanguage[code] ??= []).push(i);
  const topics = [];
  for (let t = 0; t < 200; t++) {
    const s = t % SUBJECTS.length;
    const k = Math.floor(t / SUBJECTS.length);
    const place = PLACES[(s + k * 10) % PLACES.length];
    const cls = CLASSES[t % 10];
    const language = drawLanguage(random);
    const subjectOf = (code) => SUBJECTS[s][SUBJECT_LANGS.indexOf(code)];
    const estate = cls === 'typo' ? ESTATES[Math.floor(t / 10) * 2 + (t % 10 === 3 ? 0 : 1)] : null;
    const pool = byLanguage[language];
    const count = 5 + Math.floor(random() * 16);
    const leads = new Set();
    while (leads.size < Math.min(count, pool.length)) leads.add(pool[Math.floor(random() * pool.length)]);
    let query;
    let queryLanguage = language;
    if (cls === 'rare') {
      // every second rare query typed without accents (unaccent on both sides must match them)
      query = `${subjectOf(language)} ${place}`;
      if (t % 4 === 0) query = stripAccents(query);
    } else if (cls === 'multilingual') {
      queryLanguage = language === 'en' ? 'es' : t % 3 === 0 && language !== 'es' ? 'es' : 'en';
      query = `${subjectOf(queryLanguage)} ${place}`;
    } else {
      query = misspell(estate, t);
    }
    topics.push({
      id: t,
      class: cls,
      language,
      subject: subjectOf(language),
      place,
      estate,
      query,
      queryLanguage,
      leadIndexes: [...leads].sort((a, b) => a - b),
      leadIds: [...leads].sort((a, b) => a - b).map((i) => leadIds[i]),
    });
  }
  return { languages, topics };
}

/** The common queries (`crm-search-common`): ordinary template words, thousands of matches each. */
const COMMON_QUERIES = [
  'piscina privada',
  'hipoteca',
  'vistas al mar',
  'sea views',
  'budget',
  'visita sábado',
  'terrazza',
  'Meerblick',
  'garagem',
  'piscine',
  'price too high',
  'certificado energético',
];

// ---------------------------------------------------------------- text

const pick = (random, list) => list[Math.floor(random() * list.length)];

/** A budget as each language writes it (€1,250,000; 1.250.000 €; 1 250 000 €), grouped by hand (Intl is slow). */
function budget(random, code) {
  const thousands = 150 + Math.floor(random() * 60) * 25;
  const separator = code === 'en' ? ',' : code === 'fr' ? ' ' : '.';
  const grouped =
    thousands >= 1000
      ? `${Math.floor(thousands / 1000)}${separator}${String(thousands % 1000).padStart(3, '0')}${separator}000`
      : `${thousands}${separator}000`;
  return code === 'en' ? `€${grouped}` : `${grouped} €`;
}

/** A sentence of `bank` with its slots filled from `random`. */
function fill(random, code, template) {
  const b = BANKS[code];
  return template.replace(/\{(\w+)\}/g, (_, slot) => {
    switch (slot) {
      case 'type':
        return pick(random, b.types);
      case 'area':
      case 'area2':
        return pick(random, AREAS);
      case 'budget':
        return budget(random, code);
      case 'beds':
        return String(1 + Math.floor(random() * 5));
      case 'feature':
        return pick(random, b.features);
      case 'objection':
        return pick(random, b.objections);
      case 'day': {
        const day = pick(random, b.days);
        return template.startsWith(`{${slot}}`) ? day[0].toUpperCase() + day.slice(1) : day;
      }
      default:
        throw new Error(`search data: unknown slot ${slot}`);
    }
  });
}

const sentences = (random, code, list, min, max) =>
  Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () =>
    fill(random, code, pick(random, list)),
  );

/** The topic's sentence in its language (with its estate for a typo topic). */
function plantSentence(random, topic) {
  const template = pick(random, BANKS[topic.language].plant);
  const place = topic.estate ? `Cortijo ${topic.estate} (${topic.place})` : topic.place;
  return template.replace('{subject}', topic.subject).replace('{place}', place);
}

/** `list` with `sentence` put at a random place (a planted event), or unchanged. */
function withPlant(random, list, sentence) {
  if (!sentence) return list;
  const at = Math.floor(random() * (list.length + 1));
  return [...list.slice(0, at), sentence, ...list.slice(at)];
}

function noteText(random, code, plant) {
  return withPlant(random, sentences(random, code, BANKS[code].note, 2, 5), plant).join(' ');
}

function messageText(random, code, plant) {
  return withPlant(random, sentences(random, code, BANKS[code].message, 1, 2), plant).join(' ');
}

function email(random, code, plant) {
  const b = BANKS[code];
  const body = withPlant(random, sentences(random, code, b.email, 2, 5), plant);
  return {
    subject: fill(random, code, pick(random, b.subjects)),
    body: `${b.greeting}\n\n${body.join(' ')}\n\n${b.closing}\n${pick(random, ['Laura', 'Javier', 'Anna', 'Marco', 'Sophie'])}`,
  };
}

function task(random, code, plant) {
  const b = BANKS[code];
  const description =
    random() < 0.6 || plant ? withPlant(random, sentences(random, code, b.note, 1, 2), plant) : null;
  return { title: fill(random, code, pick(random, b.tasks)), description: description?.join(' ') ?? null };
}

/** A call's transcript: turns of agent and client; one in ten long (over 2,000 characters: several chunks). */
function transcript(random, code, plant) {
  const b = BANKS[code];
  const turns = random() < 0.1 ? 30 + Math.floor(random() * 40) : 6 + Math.floor(random() * 16);
  const lines = [];
  for (let i = 0; i < turns; i++) {
    const agent = i % 2 === 0;
    lines.push(
      `${agent ? b.agent : b.client}: ${fill(random, code, pick(random, agent ? b.agentLines : b.clientLines))}`,
    );
  }
  if (plant) lines.splice(1 + Math.floor(random() * (lines.length - 1)), 0, `${b.client}: ${plant}`);
  return lines.join('\n');
}

/** The stored analysis (INTERFACES.md "Ingestion") of a call in `code`. */
function analysis(random, code, plant, at) {
  const b = BANKS[code];
  const summary = withPlant(random, sentences(random, code, b.summaries, 1, 2), plant).join(' ');
  return {
    summary,
    sentiment: {
      overall: pick(random, ['positive', 'neutral', 'negative']),
      score: round(random() * 2 - 1, 2),
    },
    objections: Array.from({ length: Math.floor(random() * 3) }, () => ({
      topic: pick(random, b.objections),
      quote: random() < 0.5 ? fill(random, code, pick(random, b.clientLines)) : null,
      handled: random() < 0.5,
    })),
    nextSteps: Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
      text: fill(random, code, pick(random, b.nextSteps)),
      owner: 'agent',
      dueAt: null,
    })),
    coachingTips: Array.from({ length: Math.floor(random() * 3) }, () => ({
      tip: pick(random, b.tips),
      category: null,
    })),
    signals: [],
    model: 'bench',
    analyzedAt: at.toISOString(),
  };
}

/** A v4-shaped UUID from the seeded generator (the same ids on every build). */
function uuidOf(random) {
  const hex = () =>
    Math.floor(random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  const a = hex();
  const b = hex();
  const c = hex();
  const d = hex();
  const variant = (8 + (parseInt(c[0], 16) & 3)).toString(16);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

// ---------------------------------------------------------------- events

/** Shares of the record kinds; a call is a transcript and, two times in three, an analysis. */
const KINDS = [
  ['note', 0.25],
  ['message', 0.25],
  ['email', 0.15],
  ['task', 0.1],
  ['call', 0.15],
];
const NOW = Date.parse('2026-11-24T12:00:00Z');
const SPAN_MS = 3 * 365 * 86_400_000;

function drawKind(random) {
  let r = random() * 0.9;
  for (const [kind, share] of KINDS) {
    r -= share;
    if (r < 0) return kind;
  }
  return 'note';
}

/**
 * The events as batches of records: each record a CRM row and its searchable documents. The
 * planted events (1-3 per planted lead of a topic) come first, then ordinary events on leads drawn
 * with a mild skew (some leads have far more history than others), over three years with more in
 * the recent months, until `events` documents. The records of a batch are ready for `insertBatch`.
 */
function* eventBatches({ leadIds, languages, topics, userIds, events }) {
  const random = seededRandom(1800);
  let documents = 0;
  let batch = [];
  let serial = 0;
  const record = (kind, leadIndex, plant, planted) => {
    const lead = leadIds[leadIndex];
    const leadLanguage = languages[leadIndex];
    // agents write one note or task in ten in English whatever the lead speaks
    const writtenIn =
      plant || leadLanguage === 'en' || !['note', 'task'].includes(kind) || random() >= 0.1
        ? leadLanguage
        : 'en';
    const at = new Date(NOW - Math.floor(random() ** 1.6 * SPAN_MS));
    const userId = userIds[Math.floor(random() * userIds.length)];
    const id = uuidOf(random);
    serial += 1;
    const r = { kind, id, leadId: lead, at, userId, serial, planted };
    if (kind === 'note') {
      r.content = noteText(random, writtenIn, plant);
    } else if (kind === 'message') {
      r.inbound = random() < 0.55;
      r.channel = pick(random, ['whatsapp', 'whatsapp', 'whatsapp', 'telegram', 'instagram', 'linkedin']);
      r.body = messageText(random, writtenIn, plant);
    } else if (kind === 'email') {
      r.source = pick(random, ['captured', 'captured', 'manual', 'automated']);
      r.inbound = r.source === 'captured' && random() < 0.6;
      Object.assign(r, email(random, writtenIn, plant));
    } else if (kind === 'task') {
      Object.assign(r, task(random, writtenIn, plant));
      r.done = random() < 0.6;
    } else {
      // one call in ten is in English whatever the lead's language (a foreign buyer): detected so
      const spoken = plant || random() >= 0.1 ? leadLanguage : 'en';
      r.language = TAG[spoken];
      r.inbound = random() < 0.4;
      r.duration = 60 + Math.floor(random() * 1200);
      r.transcript = transcript(random, spoken, plant);
      r.analysis = plant || random() < 2 / 3 ? analysis(random, spoken, plant, at) : null;
    }
    documents += kind === 'call' && r.analysis ? 2 : 1;
    return r;
  };

  for (const topic of topics) {
    for (const leadIndex of topic.leadIndexes) {
      const times = 1 + Math.floor(random() * 3);
      for (let i = 0; i < times; i++) {
        batch.push(record(drawKind(random), leadIndex, plantSentence(random, topic), topic.id));
        if (batch.length >= BATCH) {
          yield batch;
          batch = [];
        }
      }
    }
  }
  const planted = documents;
  while (documents < events) {
    const leadIndex = Math.floor(random() ** 1.3 * leadIds.length);
    let kind = drawKind(random);
    if (kind === 'call' && events - documents < 2) kind = 'note';
    batch.push(record(kind, leadIndex, null, null));
    if (batch.length >= BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
  return { documents, planted };
}

// ---------------------------------------------------------------- SQL

/**
 * The built modules that turn a record into passages, loaded on first use (search-documents and
 * the indexer load the CRM's and the search context's modules: a few seconds).
 */
const INDEX = {
  get documents() {
    return built('crm/src/application/search-documents.js');
  },
  get toChunkRows() {
    return built('search/src/application/search-indexer.js').toChunkRows;
  },
  get insertChunksStatement() {
    return built('search/src/application/search-index.sql.js').insertChunksStatement;
  },
};

/** A generated record's searchable documents, by the CRM's own rules (as its services index them). */
function documentsOf(organizationId, r) {
  const owned = { id: r.id, organizationId, leadId: r.leadId };
  const d = INDEX.documents;
  switch (r.kind) {
    case 'note':
      return [d.noteDocument({ ...owned, content: r.content, occurredAt: null, createdAt: r.at })];
    case 'message':
      return [
        d.messageDocument({
          ...owned,
          body: r.body,
          direction: r.inbound ? 'inbound' : 'outbound',
          at: r.at,
        }),
      ];
    case 'email':
      return [
        d.emailDocument({
          ...owned,
          subject: r.subject,
          bodyText: r.body,
          source: r.source,
          captureDirection: r.source === 'captured' ? (r.inbound ? 'inbound' : 'outbound') : null,
          messageAt: r.at,
        }),
      ];
    case 'task':
      return [d.taskDocument({ ...owned, title: r.title, description: r.description, createdAt: r.at })];
    default:
      return [
        d.transcriptDocument({
          ...owned,
          transcript: r.transcript,
          detectedLanguage: r.language,
          startedAt: r.at,
        }),
        ...(r.analysis ? [d.analysisDocument({ ...owned, analysis: r.analysis, startedAt: r.at })] : []),
      ];
  }
}

/** A built statement (`?` placeholders) as pg runs it. */
function pgStatement(statement) {
  let n = 0;
  return { text: statement.sql.replace(/\?/g, () => `$${++n}`), values: statement.params };
}

/** One batch: its notes, messages, emails, tasks and calls, then its passages (the indexer's own statement). */
async function insertBatch(client, organizationId, records) {
  const of = (kind) => records.filter((r) => r.kind === kind);
  const notes = of('note');
  if (notes.length)
    await client.query(
      `insert into notes (id, organization_id, lead_id, author_id, content, is_pinned, created_at, updated_at)
       select r.id, $1, r.lead_id, r.author_id, r.content, false, r.at, r.at
         from unnest($2::uuid[], $3::bigint[], $4::uuid[], $5::text[], $6::timestamptz[]) as r(id, lead_id, author_id, content, at)`,
      [
        organizationId,
        notes.map((r) => r.id),
        notes.map((r) => r.leadId),
        notes.map((r) => r.userId),
        notes.map((r) => r.content),
        notes.map((r) => r.at),
      ],
    );
  const messages = of('message');
  if (messages.length)
    await client.query(
      `insert into chat_messages (id, organization_id, lead_id, connector, external_id, channel, kind, direction, status,
                                  at, body, files, sent_by, actor, created_at, updated_at)
       select r.id, $1, r.lead_id, 'bench-chat', 'bench-' || r.serial, r.channel, 'text',
              case when r.inbound then 'inbound' else 'outbound' end, case when r.inbound then 'received' else 'read' end,
              r.at, r.body, '[]'::jsonb, case when r.inbound then null else r.user_id end, 'integration:bench', r.at, r.at
         from unnest($2::uuid[], $3::bigint[], $4::int[], $5::text[], $6::boolean[], $7::timestamptz[], $8::text[], $9::uuid[])
           as r(id, lead_id, serial, channel, inbound, at, body, user_id)`,
      [
        organizationId,
        messages.map((r) => r.id),
        messages.map((r) => r.leadId),
        messages.map((r) => r.serial),
        messages.map((r) => r.channel),
        messages.map((r) => r.inbound),
        messages.map((r) => r.at),
        messages.map((r) => r.body),
        messages.map((r) => r.userId),
      ],
    );
  const emails = of('email');
  if (emails.length)
    await client.query(
      `insert into emails (id, organization_id, lead_id, connector, external_id, source, capture_direction, subject,
                           status, from_address, recipient_email, body_text, sent_at, message_at, captured_at, actor,
                           created_at, updated_at)
       select r.id, $1, r.lead_id, 'bench-mail', 'bench-' || r.serial, r.source,
              case when r.source = 'captured' then case when r.inbound then 'inbound' else 'outbound' end end,
              r.subject, case when r.inbound then 'received' else 'delivered' end,
              case when r.inbound then 'client@mail.example' else 'agent@bench.example' end,
              case when r.inbound then 'agent@bench.example' else 'client@mail.example' end,
              r.body, case when r.inbound then null else r.at end, r.at,
              case when r.source = 'captured' then r.at end, 'integration:bench', r.at, r.at
         from unnest($2::uuid[], $3::bigint[], $4::int[], $5::text[], $6::boolean[], $7::text[], $8::text[], $9::timestamptz[])
           as r(id, lead_id, serial, source, inbound, subject, body, at)`,
      [
        organizationId,
        emails.map((r) => r.id),
        emails.map((r) => r.leadId),
        emails.map((r) => r.serial),
        emails.map((r) => r.source),
        emails.map((r) => r.inbound),
        emails.map((r) => r.subject),
        emails.map((r) => r.body),
        emails.map((r) => r.at),
      ],
    );
  const tasks = of('task');
  if (tasks.length)
    await client.query(
      `insert into tasks (id, organization_id, lead_id, assignee_ids, created_by, title, description, due_date, status,
                          completed_at, created_at, updated_at)
       select r.id, $1, r.lead_id, array[r.user_id], r.user_id, r.title, r.description, r.at + interval '3 days',
              case when r.done then 'completed' else 'pending' end, case when r.done then r.at + interval '2 days' end,
              r.at, r.at
         from unnest($2::uuid[], $3::bigint[], $4::uuid[], $5::text[], $6::text[], $7::boolean[], $8::timestamptz[])
           as r(id, lead_id, user_id, title, description, done, at)`,
      [
        organizationId,
        tasks.map((r) => r.id),
        tasks.map((r) => r.leadId),
        tasks.map((r) => r.userId),
        tasks.map((r) => r.title),
        tasks.map((r) => r.description),
        tasks.map((r) => r.done),
        tasks.map((r) => r.at),
      ],
    );
  const calls = of('call');
  if (calls.length)
    await client.query(
      `insert into calls (id, organization_id, lead_id, connector, external_id, owner_id, direction, status, outcome,
                          ended_reason, duration_seconds, has_recording, started_at, ended_at, transcript,
                          detected_language, transcript_at, analysis, analysis_at, actor, created_at, updated_at)
       select r.id, $1, r.lead_id, 'bench-phone', 'bench-' || r.serial, r.user_id,
              case when r.inbound then 'inbound' else 'outbound' end, 'completed', 'interested', 'hangup', r.duration, true,
              r.at, r.at + r.duration * interval '1 second', r.transcript, r.language,
              r.at + r.duration * interval '1 second' + interval '2 minutes', r.analysis,
              case when r.analysis is not null then r.at + r.duration * interval '1 second' + interval '3 minutes' end,
              'integration:bench', r.at, r.at
         from unnest($2::uuid[], $3::bigint[], $4::int[], $5::uuid[], $6::boolean[], $7::int[], $8::timestamptz[],
                     $9::text[], $10::text[], $11::jsonb[])
           as r(id, lead_id, serial, user_id, inbound, duration, at, transcript, language, analysis)`,
      [
        organizationId,
        calls.map((r) => r.id),
        calls.map((r) => r.leadId),
        calls.map((r) => r.serial),
        calls.map((r) => r.userId),
        calls.map((r) => r.inbound),
        calls.map((r) => r.duration),
        calls.map((r) => r.at),
        calls.map((r) => r.transcript),
        calls.map((r) => r.language),
        calls.map((r) => (r.analysis ? JSON.stringify(r.analysis) : null)),
      ],
    );
  // the passages as the services index them: the CRM's own documents of the records
  // (search-documents), cut by the indexer's own `toChunkRows`, stored with its own statement
  const rows = records.flatMap((r) => documentsOf(organizationId, r)).flatMap(INDEX.toChunkRows);
  await client.query(pgStatement(INDEX.insertChunksStatement(organizationId, rows)));
  return rows.length;
}

async function connect(url) {
  const client = new Client({ connectionString: url });
  await client.connect();
  // a bulk load: losing the last commits on a crash is fine, the build starts over
  await client.query('set synchronous_commit = off');
  return client;
}

/** Sizes of the search tables and their indexes. */
async function sizes(client) {
  const { rows } = await client.query(
    `select c.relname as name, c.relkind as kind, pg_size_pretty(pg_total_relation_size(c.oid)) as total,
            pg_total_relation_size(c.oid) as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and (c.relname in ('search_chunk', 'notes', 'tasks', 'calls', 'chat_messages', 'emails')
             or (c.relkind = 'i' and c.relname like 'search_chunk%'))
      order by c.relkind desc, pg_total_relation_size(c.oid) desc`,
  );
  return rows.map((r) => ({ name: r.name, index: r.kind === 'i', size: r.total, bytes: Number(r.bytes) }));
}

/**
 * Builds the data in the agency (see the file's head): languages, the CRM records replaced by the
 * generated ones, the chunks with the indexes rebuilt, `vacuum analyze`. Returns its timings,
 * counts and sizes.
 */
async function buildSearchData({ databaseUrl, organizationId, leadIds, db, events = EVENTS }) {
  const started = Date.now();
  const timings = {};
  const lap = (name, from) => (timings[name] = round((Date.now() - from) / 1000, 1));
  const { languages, topics } = plan(leadIds);
  const main = await connect(databaseUrl);
  try {
    let t = Date.now();
    await main.query(
      `update leads l set language = x.language
         from unnest($2::bigint[], $3::text[]) as x(id, language)
        where l.id = x.id and l.organization_id = $1`,
      [organizationId, leadIds, languages.map((code) => TAG[code])],
    );
    // the definitions are kept before the drop: a build that fails midway starts over with them
    const { rows: present } = await main.query(
      `select indexname, indexdef from pg_indexes
        where schemaname = 'public' and tablename = 'search_chunk' and indexname <> 'search_chunk_pkey'`,
    );
    const indexes = db?.indexes ?? present;
    await db?.remember?.('indexes', indexes);
    for (const index of present) await main.query(`drop index ${index.indexname}`);
    // the demo's history goes: the agency's searchable records are the generated ones alone
    for (const table of ['search_chunk', 'notes', 'tasks', 'calls', 'chat_messages', 'emails'])
      await main.query(`delete from ${table} where organization_id = $1`, [organizationId]);
    lap('prepare', t);

    t = Date.now();
    const { rows: users } = await main.query(
      'select user_id from memberships where organization_id = $1 order by user_id',
      [organizationId],
    );
    const userIds = users.map((u) => u.user_id);
    const loaders = await Promise.all(Array.from({ length: LOADERS }, () => connect(databaseUrl)));
    const generator = eventBatches({ leadIds, languages, topics, userIds, events });
    let chunks = 0;
    let records = 0;
    let result;
    let generateMs = 0;
    const next = () => {
      const g0 = Date.now();
      const step = generator.next();
      generateMs += Date.now() - g0;
      if (step.done) {
        // (the other loader asks again after the end: undefined then)
        result ??= step.value;
        return null;
      }
      return step.value;
    };
    // each loader takes the next batch when its last insert is done; generation runs between them
    await Promise.all(
      loaders.map(async (client) => {
        for (let batch = next(); batch; batch = next()) {
          // (read after the await: the other loader adds meanwhile)
          const added = await insertBatch(client, organizationId, batch);
          chunks += added;
          records += batch.length;
          if (records % 100_000 < BATCH)
            log(
              `search data: ${records.toLocaleString('en')} records, ${chunks.toLocaleString('en')} chunks`,
            );
        }
      }),
    );
    await Promise.all(loaders.map((c) => c.end()));
    lap('load', t);
    timings.generate = round(generateMs / 1000, 1);

    // the indexes again, two at a time (GIN builds are single-threaded on PostgreSQL 15); the
    // trigram one, the longest, alone on its connection
    t = Date.now();
    const builders = await Promise.all([connect(databaseUrl), connect(databaseUrl)]);
    for (const c of builders) await c.query(`set maintenance_work_mem = '1GB'`);
    const trigram = indexes.filter((i) => /gin_trgm_ops/.test(i.indexdef));
    const others = indexes.filter((i) => !/gin_trgm_ops/.test(i.indexdef));
    const indexSeconds = {};
    const build = async (client, list) => {
      for (const index of list) {
        const i0 = Date.now();
        await client.query(index.indexdef);
        indexSeconds[index.indexname] = round((Date.now() - i0) / 1000, 1);
        log(`search data: ${index.indexname} built in ${indexSeconds[index.indexname]} s`);
      }
    };
    await Promise.all([build(builders[0], trigram), build(builders[1], others)]);
    lap('indexes', t);
    t = Date.now();
    await Promise.all([
      builders[0].query('vacuum analyze search_chunk'),
      builders[1].query('vacuum analyze leads, notes, tasks, calls, chat_messages, emails'),
    ]);
    await Promise.all(builders.map((c) => c.end()));
    lap('vacuum', t);

    const { rows: count } = await main.query(
      `select source_kind, count(*)::int as chunks, count(distinct source_id)::int as sources
         from search_chunk where organization_id = $1 group by 1 order by 1`,
      [organizationId],
    );
    const info = {
      version: DATA_VERSION,
      events: result.documents,
      plantedEvents: result.planted,
      records,
      chunks,
      byKind: Object.fromEntries(count.map((r) => [r.source_kind, { chunks: r.chunks, sources: r.sources }])),
      seconds: round((Date.now() - started) / 1000, 1),
      timings: { ...timings, indexSeconds },
      sizes: await sizes(main),
      builtAt: new Date().toISOString(),
    };
    log(
      `search data: ${info.events.toLocaleString('en')} events (${info.plantedEvents} planted), ${chunks.toLocaleString('en')} chunks, ` +
        `built in ${info.seconds} s ${JSON.stringify(info.timings)}`,
    );
    return { info, topics };
  } finally {
    await main.end();
  }
}

// ---------------------------------------------------------------- the kept database

/**
 * The search workloads' database, kept between runs (the others' are throwaway): named by the
 * lead and event counts, it holds the agency seed:demo made (table `bench_search_seed`: the agency
 * as seed:demo printed it, and once built the data's facts). `BENCH_SEARCH_FRESH=1` drops it
 * first. `drop()` keeps it; `forget()` drops it.
 */
async function searchDatabase(leads, events = EVENTS) {
  const name = env.BENCH_SEARCH_DATABASE ?? `estate_bench_search_${leads}_${events}`;
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    if (env.BENCH_SEARCH_FRESH === '1') await admin.query(`drop database if exists ${name} with (force)`);
    const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (!rows.length) await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const db = {
    name,
    url: url.toString(),
    kept: true,
    agency: null,
    data: null,
    indexes: null,
    async drop() {
      log(`search: database ${name} kept for the next run (BENCH_SEARCH_FRESH=1 rebuilds it)`);
    },
    async forget() {
      const client = new Client({ connectionString: SERVER_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
    /** Stores the agency (after seed:demo) or the data's facts (after the build). */
    async remember(field, value) {
      const client = new Client({ connectionString: db.url });
      await client.connect();
      try {
        await client.query(
          'create table if not exists bench_search_seed (field text primary key, value jsonb not null)',
        );
        await client.query(
          'insert into bench_search_seed values ($1, $2) on conflict (field) do update set value = excluded.value',
          [field, JSON.stringify(value)],
        );
      } finally {
        await client.end();
      }
      db[field] = value;
    },
  };
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    const [{ kept }] = (await client.query(`select to_regclass('bench_search_seed') is not null as kept`))
      .rows;
    if (kept) {
      const { rows } = await client.query('select field, value from bench_search_seed');
      for (const row of rows) db[row.field] = row.value;
    }
  } finally {
    await client.end();
  }
  if (!db.agency) {
    // nothing remembered: new, or a seed that failed midway; start clean
    await db.forget();
    const admin2 = new Client({ connectionString: SERVER_URL });
    await admin2.connect();
    await admin2.query(`create database ${name}`);
    await admin2.end();
    db.indexes = null;
  }
  // data of another generator version is rebuilt (in the same agency)
  if (db.data && db.data.version !== DATA_VERSION) db.data = null;
  log(
    `search: database ${name} ${db.agency ? `kept (agency ${db.agency.organizationId}${db.data ? `, data built ${db.data.builtAt}` : ', data not built yet'})` : 'new'}`,
  );
  return db;
}

module.exports = {
  EVENTS,
  DATA_VERSION,
  LANGUAGES,
  COMMON_QUERIES,
  plan,
  buildSearchData,
  searchDatabase,
  sizes,
  stripAccents,
};
