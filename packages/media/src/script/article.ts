/**
 * The Portuguese definite article a product's name takes ("Conheça a Camiseta Básica", "o Moletom Feminino"), as
 * far as the name itself tells its gender and number (decision "Portuguese articles"): an article that disagrees
 * with the noun is worse than none, so an undecided name gets none.
 */
export type PtArticle = 'o' | 'a' | 'os' | 'as';

/** Nouns in -a that are masculine: the common ones a shop's name starts with. */
const MASCULINE_A = new Set([
  'dia',
  'mapa',
  'sofá',
  'problema',
  'sistema',
  'tema',
  'programa',
  'pijama',
  'clima',
  'idioma',
  'planeta',
  'kit',
]);
/** Endings of feminine nouns whatever their last letter (ação, cidade, bolsa-viagem, mensagem, tolice). */
const FEMININE_ENDING = /(?:ção|são|dade|gem|ice)$/u;
/** Words that join a name's noun to what follows: the adjective search stops there ("Fone de Ouvido"). */
const CONNECTOR = /^(?:de|da|do|das|dos|com|para|em|e|sem)$/u;

/** What an ending says of a word as a noun: its article, or undefined when it cannot tell. */
function byNoun(word: string): PtArticle | undefined {
  if (MASCULINE_A.has(word)) return 'o';
  if (FEMININE_ENDING.test(word)) return 'a';
  if (/[^aeiouáéíóú]as$/u.test(word)) return 'as';
  if (/[^aeiouáéíóú]os$/u.test(word)) return 'os';
  if (/a$/u.test(word)) return 'a';
  if (/o$/u.test(word)) return 'o';
  return undefined;
}

/**
 * Adjectives a shop puts after the noun, by their agreeing endings (esportivo, térmica, feminino, básica, acolchoado,
 * estampada, preto, branca): a word that merely ends in -a or -o may be a brand ("Perfume Lattafa") and says nothing.
 */
const ADJECTIVE =
  /(?:ic|iv|in|ad|id|os|eir|ári|ent|ant|ístic|ét|at)(?:o|a|os|as)$|^(?:pret|branc|nov|curt|long|larg|alt|baix|fin|grand|pequen|verdadeir|vermelh|amarel|roxo|escur|clar)(?:o|a|os|as)$/u;

function byAdjective(word: string): PtArticle | undefined {
  if (!ADJECTIVE.test(word)) return undefined;
  return (word.match(/(?:os|as|o|a)$/u)?.[0] as PtArticle | undefined) ?? undefined;
}

/**
 * The article of `name`: its first word's ending as a noun (camiseta, vestido, óculos); for a noun whose ending does
 * not say it by itself (tênis, moletom, boné), the adjective right after it when it agrees visibly, else the
 * masculine of most such nouns; a noun in -e (fone, lente) with no adjective to tell, undefined.
 */
export function ptArticle(name: string): PtArticle | undefined {
  const words = name
    .toLocaleLowerCase('pt-BR')
    .split(/\s+/u)
    .map((word) => word.replace(/[^\p{L}]/gu, ''));
  const [noun, ...rest] = words;
  if (!noun) return undefined;
  const said = byNoun(noun);
  if (said) return said;
  // Only the word right after the noun agrees with it for sure ("Boné Aba Curva": curva is the brim's).
  const next = rest[0];
  const agreed = next && !CONNECTOR.test(next) ? byAdjective(next) : undefined;
  if (agreed) return agreed;
  // Nouns ending in a consonant or a stressed vowel are masculine but for a few (a flor, a luz) no shop name starts
  // with, and so are the loanwords shops use (o smartphone, o kit, o boné); -e goes either way (o fone, a lente).
  return /(?:[^aeiouáéíóúâêôãõ]|[iuéêôó])$/u.test(noun) ? 'o' : undefined;
}
