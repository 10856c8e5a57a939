// Citations in code comments must resolve, run by `npm run lint`:
// - the word spec, then a heading of docs/spec.md in double quotes; the same for design and docs/design.md;
// - the word decision (or decisions, with several quoted titles joined by commas, "and" or "or"), then the title
//   (first `# ` heading) of a record in docs/decisions/, in double quotes;
// - no code comment cites a tracker number (the word issue and a number): say what is meant, or cite a record.
// Comments are read from every .ts, .tsx, .mts, .js, .mjs and .cjs file outside node_modules, dist and data, with a
// citation that wraps onto the next comment line still read as one. The Markdown of docs/ and README.md is held to the
// same spec, design and decision citations (their prose may tell a decision's history, tracker numbers included).
// Exits 1 listing every citation that does not resolve as file:line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'coverage']);
const SOURCE = /\.(ts|tsx|mts|js|mjs|cjs)$/;

function* walk(dir, wanted) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path, wanted);
    else if (wanted.test(entry.name)) yield path;
  }
}

/** The `##`…`######` headings of a Markdown file. */
function headingsOf(path) {
  return new Set([...readFileSync(path, 'utf8').matchAll(/^#{2,6} +(.+?) *$/gm)].map((m) => m[1]));
}

/** The titles of the decision records: each record's first `# ` heading. */
function decisionTitles() {
  const dir = join(ROOT, 'docs/decisions');
  const titles = new Set();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.md') || name === 'README.md') continue;
    const title = /^# +(.+?) *$/m.exec(readFileSync(join(dir, name), 'utf8'));
    if (title) titles.add(title[1]);
  }
  return titles;
}

function scriptKind(path) {
  if (path.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (/\.(js|mjs|cjs)$/.test(path)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** Every comment of a source file as [start, end) ranges in order, found through the parser (so never in a string). */
function commentRanges(path, text) {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, scriptKind(path));
  const seen = new Map();
  const add = (ranges) => {
    for (const range of ranges ?? []) seen.set(range.pos, range.end);
  };
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.getFullStart()));
    add(ts.getTrailingCommentRanges(text, node.getEnd()));
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...seen].sort((a, b) => a[0] - b[0]);
}

/**
 * Comments that follow one another with only white space between are one block; a block becomes one line of text
 * (comment markers and line breaks dropped) with, for each piece, the line it came from.
 */
function commentBlocks(text) {
  return (ranges) => {
    const blocks = [];
    let last = -1;
    for (const [start, end] of ranges) {
      if (blocks.length === 0 || text.slice(last, start).trim() !== '') blocks.push([]);
      blocks.at(-1).push([start, end]);
      last = end;
    }
    return blocks.map((block) => {
      const pieces = [];
      for (const [start, end] of block) {
        let line = text.slice(0, start).split('\n').length;
        for (const raw of text.slice(start, end).split('\n')) {
          const stripped = raw
            .trim()
            .replace(/^\/\/+|^\/\*+|^\*+(?!\/)/, '')
            .replace(/\*+\/$/, '')
            .trim();
          pieces.push({ text: stripped, line });
          line += 1;
        }
      }
      return pieces;
    });
  };
}

/** One text from pieces, and a way back from an offset in it to the piece's line. */
function joined(pieces) {
  let text = '';
  const starts = [];
  for (const piece of pieces) {
    if (text !== '') text += ' ';
    starts.push([text.length, piece.line]);
    text += piece.text;
  }
  const lineAt = (offset) => starts.findLast(([start]) => start <= offset)?.[1] ?? 1;
  return { text, lineAt };
}

const CITED = /\b(spec|design|decisions?)\s+"([^"]+)"((?:\s*(?:,|and|or|, and)\s*"[^"]+")*)/g;
const TRACKER = /\bissues?\s+#?\d+/gi;
// A file with no such word before a quote, and no such number, cites nothing and is not parsed (parsing is the slow part).
const MENTIONS = /\b(spec|design|decisions?)\s*(?:\n[\s/*]*)?"|\bissues?\s+#?\d/i;

export function problemsIn(where, pieces, known, { trackerNumbers }) {
  const { text, lineAt } = joined(pieces);
  const problems = [];
  for (const match of text.matchAll(CITED)) {
    const [, kind, first, more] = match;
    const names = [first, ...[...more.matchAll(/"([^"]+)"/g)].map((m) => m[1])];
    const book = kind.startsWith('decision') ? 'decision' : kind;
    for (const name of names) {
      if (known[book].has(name.replace(/\s+/g, ' '))) continue;
      const target = book === 'decision' ? 'no record in docs/decisions has this title' : `no heading of docs/${book}.md`;
      problems.push(`${where}:${lineAt(match.index)}: ${book} "${name}": ${target}`);
    }
  }
  if (trackerNumbers) {
    for (const match of text.matchAll(TRACKER)) {
      problems.push(`${where}:${lineAt(match.index)}: "${match[0]}": a comment cites no tracker number; say what is meant`);
    }
  }
  return problems;
}

export function checkCitations(root = ROOT) {
  const known = {
    spec: headingsOf(join(root, 'docs/spec.md')),
    design: headingsOf(join(root, 'docs/design.md')),
    decision: decisionTitles(),
  };
  const problems = [];
  for (const path of walk(root, SOURCE)) {
    const text = readFileSync(path, 'utf8');
    if (!MENTIONS.test(text)) continue;
    for (const pieces of commentBlocks(text)(commentRanges(path, text))) {
      problems.push(...problemsIn(relative(root, path), pieces, known, { trackerNumbers: true }));
    }
  }
  const markdown = [join(root, 'README.md'), ...walk(join(root, 'docs'), /\.md$/)];
  for (const path of markdown) {
    const pieces = readFileSync(path, 'utf8')
      .split('\n')
      .map((line, i) => ({ text: line.trim(), line: i + 1 }));
    problems.push(...problemsIn(relative(root, path), pieces, known, { trackerNumbers: false }));
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkCitations();
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-citations: ${problems.length} citation(s) do not resolve`);
    process.exit(1);
  }
  console.log('check-citations: every spec, design and decision citation resolves, and no comment cites an issue number');
}
