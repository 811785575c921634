/**
 * What an ended run leaves on record beside its sheet (src/import/end.ts): its saved import's last
 * outcome (when, status, the rows its sheet holds, the message, and the choices a refusal offers),
 * the run log's row (a refused replace's names every cell it would have overwritten; a failed run,
 * whatever pages it read, counts no partner read and no row kept), and a merge's message, which
 * counts rows kept for a repeated id. Driven over the in-memory ports (test/helpers).
 */
import { ServiceError } from '../../../src/api/errors';
import { RUN_LOG_HEADER } from '../../../src/import/end';
import { beginRun } from '../../../src/import/machine';
import type { OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type World, world } from '../../helpers/fake-ports';

const spec = (mode: ImportSpec['mode']): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields: ['id', 'fullName'],
  mode,
});
const run = (w: World) => beginRun('imp1', 'schedule', w.nextExecution(), w.clock.t + 60_000);
const logged = (w: World, column: string) => w.runLog[w.runLog.length - 1][RUN_LOG_HEADER.indexOf(column)];
const last = (w: World) => w.specs.find((s) => s.id === 'imp1')?.last;

describe("a run's outcome on its saved import", () => {
  test('a done run: its time, status, the rows written and its message; no choices to offer', () => {
    const w = world(fakeList(records(3)).fetch, [spec('replace')]);
    const done = run(w);
    expect(done.status).toBe('done');
    expect(last(w)).toEqual({ at: w.clock.t, status: 'done', rows: 3, message: done.message });
  });

  test('a refused replace keeps the rows of the last run that wrote, and offers Replace anyway', () => {
    const w = world(fakeList(records(3)).fetch, [spec('replace')]);
    expect(run(w).status).toBe('done');
    const t = (w.tables.get('Partners') as OutCell[][]).map((r) => [...r]);
    t[2][1] = 'Corrected';
    w.tables.set('Partners', t);
    const refused = run(w);
    expect(refused.status).toBe('failed');
    expect(last(w)).toEqual({ at: w.clock.t, status: 'failed', rows: 3, message: refused.message, offers: ['force'] });
  });

  test('a replace refused over a table the import did not write offers to let it own the table too', () => {
    const w = world(fakeList(records(3)).fetch, [spec('replace')]);
    w.tables.set('Partners', [['Name'], ['typed by hand']]);
    expect(run(w).status).toBe('failed');
    expect(last(w)?.offers).toEqual(['adopt', 'force']);
  });
});

describe("the run log's row", () => {
  test("a refused replace's message names the first cells; its log row names every one", () => {
    const w = world(fakeList(records(6)).fetch, [spec('replace')]);
    expect(run(w).status).toBe('done');
    const t = (w.tables.get('Partners') as OutCell[][]).map((r) => [...r]);
    for (const r of [1, 2, 3, 4]) t[r][1] = `edited ${r}`;
    w.tables.set('Partners', t);
    const refused = run(w);
    expect(refused.message).toContain('(B2 (edited), B3 (edited), B4 (edited) and 1 more)');
    expect(String(logged(w, 'Message'))).toMatch(
      / Every cell: B2 \(edited\), B3 \(edited\), B4 \(edited\), B5 \(edited\)\.$/,
    );
    expect(logged(w, 'Outcome')).toBe('failed');
  });

  test('a failure with nothing to name adds nothing after its message', () => {
    const w = world(
      (pages) => pages.map(() => ({ ok: false, error: new ServiceError('AUTH', 'The key was refused.') })),
      [spec('replace')],
    );
    expect(run(w).status).toBe('failed');
    expect(String(logged(w, 'Message'))).toBe('The key was refused. The sheet "Partners" keeps its previous data.');
  });

  test('a run that fails after reading pages logs nothing read and no row kept: the sheet was not written', () => {
    const list = fakeList(records(250), {
      fail: (page) => (page > 1 ? new ServiceError('AUTH', 'The key was refused.') : undefined),
    });
    const w = world(list.fetch, [spec('replace')]);
    expect(run(w).status).toBe('failed');
    expect(list.asked.some((a) => a.page === 1)).toBe(true);
    expect(w.runs.get('imp1')?.read).toBeGreaterThan(0);
    expect([logged(w, 'Outcome'), logged(w, 'Read'), logged(w, 'Kept')]).toEqual(['failed', 0, 0]);
    expect(w.tables.has('Partners')).toBe(false);
  });
});

describe("a merge's message", () => {
  test.each([
    [1, ' 1 row with a repeated id kept as it was.'],
    [2, ' 2 rows with a repeated id kept as they were.'],
  ])('%i further rows of a repeated id are counted', (further, said) => {
    const w = world(fakeList(records(2)).fetch, [spec('merge')]);
    expect(run(w).status).toBe('done');
    const t = (w.tables.get('Partners') as OutCell[][]).map((r) => [...r]);
    for (let k = 0; k < further; k++) t.push(['p0', `again ${k}`]);
    w.tables.set('Partners', t);
    const done = run(w);
    expect(done.status).toBe('done');
    expect(done.message.endsWith(said)).toBe(true);
    expect(last(w)?.message).toBe(done.message);
  });

  test('a merge without repeated ids says nothing of them', () => {
    const w = world(fakeList(records(2)).fetch, [spec('merge')]);
    expect(run(w).status).toBe('done');
    expect(run(w).message).not.toContain('repeated id');
  });
});
