/**
 * The deployed bundle against a service whose answers are hostile: one that echoes each request's
 * URL, key and all, inside a record field (a careless `self` link), and one listed partner whose
 * feedbackEntries is nested 100,000 levels deep. The key reaches no cell, cache value, sheet or
 * log on any path (formulas, imports, the change log); the deep partner costs its own field only,
 * in LP_GET over a range, LP_ACTIVE, LP_FIND and imports, and every other row keeps its value.
 */
import { addin, everythingStored } from '../../helpers/addin';
import { call, runImport, saveImport, sheet } from '../../helpers/imports';
import { leaksIn } from '../../helpers/secrets';
import { activeIds, DEMO_KEY, servicesForThisFile } from '../../helpers/service';

/** The reference service of this file, with the hostile quirks each test switches on. */
const services = servicesForThisFile(1, ['--partners', '60', '--max-page-size', '100']);
const svc = () => services[0];
let ids: string[];
beforeAll(async () => {
  ids = await activeIds(svc());
});
afterEach(() => svc().config({ quirks: { echoUrlIn: '', deepField: null } }));

const flat = (value: unknown): unknown[] => (Array.isArray(value) ? value.flat(2) : [value]);

describe('a service that echoes the request URL, key and all, in a field', () => {
  test('no path puts the key into a cell, the cache, a sheet, the change log or a log', async () => {
    await svc().config({ quirks: { echoUrlIn: 'website' } });
    const a = addin(svc().url);
    const one = a.cell('LP_GET', ids[0], 'website');
    expect(one.error).toBeUndefined();
    expect(String(one.value)).toMatch(/getLimitedPartnerById\?limitedPartnerId=.+&apiKey=\*\*\*$/);
    const cells = [
      one,
      a.cell(
        'LP_GET',
        ids.slice(0, 40).map((id) => [id]),
        'id, website',
      ),
      a.cell('LP_ACTIVE', '', '', 'id, website', false),
      a.cell('LP_FIND', 'a', 'website', 20, false),
    ];
    for (const c of cells) {
      expect(c.error).toBeUndefined();
      expect(leaksIn(JSON.stringify(flat(c.value)), [DEMO_KEY])).toEqual([]);
    }
    expect(flat(cells[2].value).filter((v) => String(v).includes('apiKey=***'))).toHaveLength(ids.length);
    // An import, then a merge over an older copy of the sheet: the change log gets every website.
    const replace = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'website'] });
    expect(runImport(a.emu, replace).pop()?.status).toBe('done');
    const merged = a.emu.workbook.addSheet('Merged');
    merged.set(0, 0, 'id');
    merged.set(0, 1, 'website');
    merged.set(1, 0, ids[0]);
    merged.set(1, 1, 'https://old.example');
    const merge = saveImport(a.emu, { sheetName: 'Merged', fields: ['id', 'website'], mode: 'merge' });
    // A table typed by hand is the analyst's until they let the import own it.
    expect(call(a.emu, 'adoptTable', [merge]).ok).toBe(true);
    expect(runImport(a.emu, merge).pop()?.status).toBe('done');
    expect(sheet(a.emu, 'Partners')).toHaveLength(ids.length + 1);
    expect(sheet(a.emu, 'Investor Data changes').length).toBeGreaterThan(1);
    expect(leaksIn(everythingStored(a.emu), [DEMO_KEY])).toEqual([]);
  });
});

describe('one partner nested 100,000 levels deep', () => {
  const DEEP = 'Error: the data service sent this field nested more than 64 levels deep; it is not shown.';

  test('costs that partner its field, not the sheet: LP_GET over a range, LP_ACTIVE, LP_FIND, imports', async () => {
    const deepId = ids[5];
    await svc().config({ quirks: { deepField: { id: deepId, field: 'feedbackEntries', depth: 100_000 } } });
    const a = addin(svc().url);
    const range = a.cell(
      'LP_GET',
      ids.slice(0, 20).map((id) => [id]),
      'id, fullName',
    );
    expect(range.error).toBeUndefined();
    expect((range.value as unknown[][]).map((r) => r[0])).toEqual(ids.slice(0, 20));
    const field = a.cell('LP_GET', [[ids[4]], [deepId]], 'id, feedbackEntries');
    expect((field.value as unknown[][])[1]).toEqual([deepId, DEEP]);
    expect(String((field.value as unknown[][])[0][1])).not.toContain('Error');
    const active = a.cell('LP_ACTIVE', '', '', 'id, feedbackEntries', false);
    expect(active.error).toBeUndefined();
    expect((active.value as unknown[][]).map((r) => r[0])).toEqual(ids);
    expect((active.value as unknown[][]).filter((r) => r[1] === DEEP)).toEqual([[deepId, DEEP]]);
    const found = a.cell('LP_FIND', 'a', 'fullName', 100, false);
    expect(found.error).toBeUndefined();
    expect((found.value as unknown[][]).length).toBeGreaterThan(1);
    const imp = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName', 'feedbackEntries'] });
    expect(runImport(a.emu, imp).pop()).toMatchObject({ status: 'done', rows: ids.length });
    const rows = sheet(a.emu, 'Partners');
    expect(rows.slice(1).map((r) => r[0])).toEqual(ids);
    expect(rows.find((r) => r[0] === deepId)?.[2]).toBe(DEEP);
  });
});
