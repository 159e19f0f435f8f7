import { foldWord } from './words';

/**
 * Issue 18 "Expand": words too common to be a concept of a query in en, es, it, pt, fr, de
 * (articles, prepositions, pronouns, conjunctions, auxiliaries). Kept short on purpose: a word
 * missing here only costs a little ranking, a content word here would be lost to the query.
 * Written as people type them; compared without case and accents (`à` is `a`). French `car`
 * is left out on purpose: it is a content word in English.
 */
const WORDS = {
  en: `a an the and or but nor if then than so as of in on at to for from by with without into onto
    about over under up down out off this that these those there here it its i me my we us our you your
    he him his she her they them their who whom whose which what when where why how is am are was were
    be been being have has had do does did will would shall should can could may might must not no yes
    all any some each such very just also only s t d m ll re ve don doesn didn isn aren wasn weren
    haven hasn won wouldn couldn shouldn`,
  es: `el la los las lo un una unos unas y e o u ni pero sino que de del al a en con sin para por
    sobre entre hasta desde hacia ante tras su sus mi mis tu tus nuestro nuestra nuestros nuestras
    yo tú él ella ellos ellas nosotros vosotros usted ustedes le les se me te nos os este esta estos
    estas ese esa esos esas aquel aquella es son era eran fue ser será serán estar está están estaba ha han he
    hemos había haber hay muy ya también como cuando donde qué quien cual cuál si sí`,
  it: `il lo la i gli le un uno una e ed o od ma che di del dello della dei degli delle da dal dallo
    dalla dai dagli dalle in nel nello nella nei negli nelle con col su sul sullo sulla sui sugli sulle
    per tra fra senza a al allo alla ai agli alle ad dell all dall nell sull l d un è sono era erano
    essere ho hai ha sei abbiamo avete hanno mi ti ci vi si ne noi voi lui lei loro suo sua suoi sue mio
    mia miei mie questo questa questi queste quello quella non come quando dove anche molto`,
  pt: `o os a as um uma uns umas e ou mas que de do da dos das em no na nos nas ao aos à às pelo pela
    pelos pelas por para com sem sobre entre até desde seu sua seus suas meu minha meus minhas eu ele
    ela eles elas nós vocês você lhe lhes se me te é são era eram foi ser estar está estão tem têm
    ter há muito já também como quando onde isso isto esse essa este esta aquele aquela num numa`,
  fr: `le la les l un une des du de d et ou mais donc ni que qu qui quoi dont à au aux en dans
    par pour avec sans sur sous chez entre vers je j tu il elle on nous vous ils elles me m te se s
    lui leur leurs son sa ses mon ma mes ton ta tes notre nos votre vos ce c cet cette ces est sont
    était été être ai as avons avez ont avoir très aussi comme quand où ne n pas y`,
  de: `der die das den dem des ein eine einen einem einer eines und oder aber doch denn wenn dass
    als wie zu zum zur von vom mit ohne für auf aus bei nach seit über unter vor in im an am um bis
    durch gegen ich du er sie es wir ihr mich mir dich dir uns euch sich sein seine ihre ihrem ihren
    mein meine dein unser ist sind war waren bin bist hat haben hatte wird werden wurde kann können
    muss nicht kein keine auch sehr noch schon`,
};

/** The folded stop words of every language. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  Object.values(WORDS).flatMap((list) => list.split(/\s+/).filter(Boolean).map(foldWord)),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(foldWord(word));
}
