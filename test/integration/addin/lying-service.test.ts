/**
 * Against a reference service that lies about its pages: (a) no pagination object,
 * (b) an under-reported total, (c) a repeated page, (d) a false pageSize, (e) 400 pages claimed
 * for a short list. LP_ACTIVE never returns a short or duplicated list without saying so; an
 * import never ends "done" with a wrong set of ids: it completes correctly, or it fails and the
 * previous sheet is untouched.
 */
import { addin } from '../../helpers/addin';
import { runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

let svc: RunningService;
let small: RunningService;
let activeIds: string[];

const honest = {
  dropPagination: false,
  totalItemsFactor: 1,
  repeatPage: 0,
  reportedPageSize: null,
  reportedTotalPages: null,
};

beforeAll(async () => {
  [svc, small] = await Promise.all([
    startService(['--partners', '420', '--max-page-size', '100']),
    startService(['--partners', '12', '--max-page-size', '100']),
  ]);
  activeIds = (await (await fetch(`${svc.url}/__admin/active-ids`)).json()) as string[];
});
afterAll(async () => {
  await Promise.all([svc?.stop(), small?.stop()]);
});
afterEach(async () => {
  await Promise.all([svc.config({ quirks: honest }), small.config({ quirks: honest })]);
});

/** Each lie, and whether a correct read is possible (then the add-in must make it) or not (then it must refuse). */
const lies: Array<[string, Record<string, unknown>, 'done' | 'failed']> = [
  ['(a) no pagination object', { dropPagination: true }, 'failed'],
  ['(b) a total under-reported by three quarters', { totalItemsFactor: 0.25 }, 'failed'],
  ['(b) a total under-reported by half', { totalItemsFactor: 0.5 }, 'failed'],
  ['(c) a repeated page', { repeatPage: 2 }, 'failed'],
  ['(d) a false pageSize', { reportedPageSize: 40 }, 'done'],
  ['(e) 400 pages claimed', { reportedTotalPages: 400 }, 'done'],
];

describe('LP_ACTIVE against a lying service', () => {
  test.each(lies)('%s: the exact active list, or an error that says what is wrong', async (_, quirks, outcome) => {
    expect(activeIds.length).toBeGreaterThan(300);
    await svc.config({ quirks });
    const a = addin(svc.url);
    const cell = a.cell('LP_ACTIVE', '', '', 'id', false);
    if (outcome === 'done') {
      expect(cell.error).toBeUndefined();
      expect((cell.value as unknown[][]).map((r) => r[0])).toEqual(activeIds);
    } else {
      expect(cell.value).toBeUndefined();
      expect(cell.error).toMatch(/pagination object|inconsistent list of active partners \(.+\)/);
    }
  });

  test('(d) and (e) are read correctly, (b) and (c) are refused with the reason', async () => {
    const outcome = async (quirks: Record<string, unknown>) => {
      await svc.config({ quirks: { ...honest, ...quirks } });
      return addin(svc.url).cell('LP_ACTIVE', '', '', 'id', false);
    };
    expect((await outcome({ reportedPageSize: 40 })).value).toHaveLength(activeIds.length);
    expect((await outcome({ reportedTotalPages: 400 })).value).toHaveLength(activeIds.length);
    expect((await outcome({ totalItemsFactor: 0.25 })).error).toMatch(
      /page 1 holds 100 items although the service reports \d+ in all/,
    );
    expect((await outcome({ totalItemsFactor: 0.5 })).error).toMatch(/page 2 holds 100 items where \d+ were expected/);
    expect((await outcome({ repeatPage: 2 })).error).toContain('page 2 repeats page 1');
  });

  test('(e) 400 pages claimed for a short list cost at most ceil(totalItems / pageSize) + 2 fetches', async () => {
    await small.config({ quirks: { reportedTotalPages: 400 } });
    for (const limit of [3, 5, 100]) {
      const a = addin(small.url);
      const cell = a.cell('LP_ACTIVE', '', limit, 'id', false);
      const rows = cell.value as unknown[][];
      expect(cell.error).toBeUndefined();
      expect(rows.length).toBeGreaterThan(5);
      expect(cell.run.ledger.fetches).toBeLessThanOrEqual(Math.ceil(rows.length / limit) + 2);
    }
  });
});

describe('import against a lying service', () => {
  test.each(lies)(
    '%s: done with exactly the active ids, or failed with the previous sheet untouched',
    async (_, quirks, outcome) => {
      const a = addin(svc.url);
      const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName'] });
      expect(runImport(a.emu, id).pop()?.status).toBe('done');
      const before = sheet(a.emu, 'Partners');
      await svc.config({ quirks });
      const last = runImport(a.emu, id).pop();
      const after = sheet(a.emu, 'Partners');
      expect(last?.status).toBe(outcome);
      if (outcome === 'done') {
        expect(after.slice(1).map((r) => r[0])).toEqual(activeIds);
      } else {
        expect(last?.message).toMatch(/^\S.+ The sheet "Partners" keeps its previous data\.$/);
        expect(after).toEqual(before);
        expect(a.emu.workbook.sheets.some((s) => s.name.startsWith('__staging_'))).toBe(false);
      }
    },
  );
});
