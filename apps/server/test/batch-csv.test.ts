// The batch results CSV as a spreadsheet reads it: no cell, and no part of one a spreadsheet splits off on `;`, `,`
// or a tab, can start a formula (decision "Batch"), and a quoted cell reads back as the text it holds; the links it
// holds are stored as URLs write them.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCell } from '../src/modules/batches/downloads.js';
import { readRows, readRowsText } from '../src/modules/batches/rows.js';

/** What a spreadsheet would see in each part of a cell it splits on `separator`. */
const partsOf = (cell: string, separator: string) => (parse(cell) as string[][])[0]?.[0]?.split(separator) ?? [];
const startsFormula = (part: string) => /^\s*[=+\-@]/.test(part) || /^[\t\r]/.test(part);

describe('a cell of the batch results CSV', () => {
  const hostile = [
    'http://shop.example/a;=1+1;',
    '=HYPERLINK("http://evil.example","click")',
    "=cmd|' /C calc'!A0",
    '@SUM(1,2)',
    '+1+2',
    '-2+3',
    '\t=1+1',
    'http://shop.example/p,=1+1',
    'http://shop.example/p\t=1+1',
    'Trail Bottle; =2*3',
  ];

  it('never starts a formula, whole or split on ; , or a tab', () => {
    for (const text of hostile) {
      const cell = csvCell(text);
      for (const separator of [';', ',', '\t']) {
        for (const part of partsOf(cell, separator))
          expect(startsFormula(part), `${JSON.stringify(text)} split on ${JSON.stringify(separator)}`).toBe(false);
      }
    }
  });

  it('is quoted, and reads back as its text where nothing needed defusing', () => {
    for (const text of ['https://shop.example/p/1.html?size=m&color=red', 'Quoted "name", with a comma', 'done', '']) {
      const cell = csvCell(text);
      expect(cell.startsWith('"') && cell.endsWith('"')).toBe(true);
      expect((parse(cell) as string[][])[0]?.[0]).toBe(text);
    }
    expect(csvCell(12)).toBe('"12"');
    expect(csvCell(null)).toBe('""');
  });
});

describe('a batch row’s link', () => {
  it('is stored as a URL writes it, from a list, a CSV or the API’s rows alike', () => {
    const typed = 'HTTPS://Shop.Example/p/linen shirt?size=M';
    const url = 'https://shop.example/p/linen%20shirt?size=M';
    expect(readRowsText(typed).rows.map((row) => row.link)).toEqual([url]);
    expect(readRowsText(`link,name\n"${typed}",Shirt`).rows.map((row) => row.link)).toEqual([url]);
    expect(readRows({ rows: [{ link: typed }] }).rows.map((row) => row.link)).toEqual([url]);
  });
});
