/**
 * Analyst data is never dropped silently, under random edits between runs (seeds swept): each
 * scenario (test/helpers/analyst-edits.ts) runs an import, lets the analyst type, insert,
 * delete, sort, move and clear at random, changes the list, and runs it again (replace, merge
 * by id or Replace anyway), once or twice. Whatever the analyst did, a refused run changed
 * nothing, a replace lost none of their cells, a merge kept each beside its partner (or named
 * in the change log what it overwrote in the import's columns), and Replace anyway said what it
 * overwrote; and a table typed by hand that the analyst lets the import own keeps what is not
 * the table (a title, a notes column, a TOTAL row). The sweeps must also reach each outcome, so
 * that they cannot pass by refusing all.
 */
import { adoptedScenario, analystScenario, type LaterRun, type Scenario } from '../../helpers/analyst-edits';

const sweep = (from: number, to: number, runs?: (seed: number) => LaterRun[]): Scenario[] =>
  Array.from({ length: to - from + 1 }, (_, k) => analystScenario(from + k, runs?.(from + k)));
const broken = (scenarios: Scenario[]) =>
  scenarios
    .filter((s) => s.broken.length)
    .slice(0, 3)
    .map((s) => `seed ${s.seed}: ${s.edits.join('; ')}\n  ${s.broken.join('\n  ')}`);
const count = (scenarios: Scenario[], last: LaterRun, status: string, withAnalystCells: boolean) =>
  scenarios.filter((s) => s.last === last && s.status === status && s.analystCells > 0 === withAnalystCells).length;

describe('random analyst edits between runs (seeds swept)', () => {
  test('runs of random modes keep every promise (seeds 1-800)', () => {
    const all = sweep(1, 800);
    expect(broken(all)).toEqual([]);
    // Every outcome is reached: replaces refused for the analyst's cells and done without any, merges done over them.
    expect(count(all, 'replace', 'failed', true)).toBeGreaterThan(100);
    expect(count(all, 'replace', 'done', false)).toBeGreaterThan(50);
    expect(count(all, 'merge', 'done', true)).toBeGreaterThan(100);
    expect(count(all, 'force', 'done', true)).toBeGreaterThan(100);
  });

  test('a merge, edits, then a replace: what the merge kept of the analyst is refused, never dropped (seeds 1-300)', () => {
    const all = sweep(1, 300, () => ['merge', 'replace']);
    expect(broken(all)).toEqual([]);
    expect(count(all, 'replace', 'done', false)).toBeGreaterThan(20);
  });

  test('Replace anyway after a merge says what it overwrote (seeds 1-300)', () => {
    const all = sweep(1, 300, () => ['merge', 'force']);
    expect(broken(all)).toEqual([]);
    expect(count(all, 'force', 'done', true)).toBeGreaterThan(100);
  });

  test("a table typed by hand, adopted, then replaced or merged: what is not the table's stays the analyst's (seeds 1-1,000)", () => {
    const all = Array.from({ length: 1000 }, (_, k) => adoptedScenario(k + 1));
    expect(all.flatMap((s) => s.broken).slice(0, 3)).toEqual([]);
    expect(all.filter((s) => s.mode === 'replace' && s.status === 'done').length).toBeGreaterThan(40);
    expect(all.filter((s) => s.mode === 'replace' && s.status === 'failed').length).toBeGreaterThan(40);
  });
});
