// The figures of a run, printed as a short table once the suite ends, so a reader of the CI log sees what was
// tried: per category the calls attacked, the requests sent, how many got the answer they had to get, how many
// snapshots were compared and how many differed, and how many answers were 5xx or leaked another user's data.

export interface CategoryFigures {
  calls: Set<string>;
  requests: number;
  /** Requests whose answer was what the attack had to get (a clear error, or an answer without anything foreign). */
  answered: number;
  snapshots: number;
  changes: number;
  serverErrors: number;
  leaks: number;
  /** Extra counts worth a word in the table, e.g. "GET bodies ignored". */
  notes: Map<string, number>;
}

const number = (n: number) => n.toLocaleString('en-US');

export class Figures {
  readonly #categories = new Map<string, CategoryFigures>();

  constructor(readonly title: string) {}

  of(category: string): CategoryFigures {
    let figures = this.#categories.get(category);
    if (!figures) {
      figures = { calls: new Set(), requests: 0, answered: 0, snapshots: 0, changes: 0, serverErrors: 0, leaks: 0, notes: new Map() };
      this.#categories.set(category, figures);
    }
    return figures;
  }

  note(category: string, what: string, count = 1): void {
    const notes = this.of(category).notes;
    notes.set(what, (notes.get(what) ?? 0) + count);
  }

  table(): string {
    const all = [...this.#categories.values()];
    const calls = new Set(all.flatMap((c) => [...c.calls]));
    const sum = (key: 'requests' | 'changes' | 'serverErrors' | 'leaks') => all.reduce((s, c) => s + c[key], 0);
    const head =
      `${this.title}: ${number(calls.size)} calls, ${number(sum('requests'))} requests, ` +
      `changes ${sum('changes')}, 5xx ${sum('serverErrors')}, leaks ${sum('leaks')}`;
    const header = ['category', 'calls', 'requests', 'as required', 'snapshots', 'changes', '5xx', 'leaks', 'notes'];
    const rows = [...this.#categories].map(([name, c]) => [
      name,
      number(c.calls.size),
      number(c.requests),
      `${number(c.answered)}/${number(c.requests)}`,
      number(c.snapshots),
      String(c.changes),
      String(c.serverErrors),
      String(c.leaks),
      [...c.notes].map(([what, n]) => `${what} ${number(n)}`).join(', '),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
    const line = (cells: string[]) =>
      `  ${cells.map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}`.trimEnd();
    return [head, line(header), ...rows.map(line)].join('\n');
  }
}
