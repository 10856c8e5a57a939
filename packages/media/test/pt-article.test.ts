// Portuguese scripts give a product's name its article where the name tells it (decision "Portuguese articles").
import { describe, expect, it } from 'vitest';
import { ptArticle } from '../src/script/article.js';
import { planScripts } from '../src/script/writer.js';

const said = (productName: string) =>
  planScripts({ productName, productDescription: '', language: 'pt', videoLength: 30, count: 5 }).flatMap((s) =>
    s.lines.map((l) => l.text),
  );

describe('Portuguese articles', () => {
  it('follow the noun, or the adjective right after a noun whose ending does not tell', () => {
    expect(ptArticle('Camiseta Básica Masculina')).toBe('a');
    expect(ptArticle('Vestido Midi')).toBe('o');
    expect(ptArticle('Óculos de Sol')).toBe('os');
    expect(ptArticle('Meias Esportivas')).toBe('as');
    expect(ptArticle('Bolsa-viagem')).toBe('a');
    expect(ptArticle('Tênis Esportivo')).toBe('o');
    expect(ptArticle('Moletom Feminino Cassia')).toBe('o');
    expect(ptArticle('Pijama Longo')).toBe('o');
    expect(ptArticle('Boné Aba Curva')).toBe('o');
    expect(ptArticle('Smartwatch X9')).toBe('o');
    expect(ptArticle('Kit 3 Camisetas')).toBe('o');
  });

  it('are left out where the name does not tell: no article is better than a wrong one', () => {
    expect(ptArticle('Fone de Ouvido Bluetooth')).toBeUndefined();
    expect(ptArticle('Perfume Lattafa')).toBeUndefined();
    expect(ptArticle('Lente de Contato')).toBeUndefined();
  });

  it('are said in the scripts: "conheça a Camiseta", never "Conheça Camiseta"', () => {
    const lines = said('Camiseta Básica Masculina').join('\n');
    expect(lines).toMatch(/\b(?:[Cc]onheça|mostrar|com|Veja) a Camiseta Básica/u);
    expect(lines).not.toMatch(/\b(?:[Cc]onheça|mostrar|com|Veja) Camiseta/u);
    expect(said('Tênis Esportivo').join('\n')).toMatch(/\b(?:[Cc]onheça|mostrar|com|Veja) o Tênis Esportivo/u);
    expect(said('Fone de Ouvido Bluetooth').join('\n')).not.toMatch(/(?<=\s)(?:o|a) Fone/u);
  });
});
