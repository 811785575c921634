/**
 * What an analyst adds to an imported table survives the next import, in the two places the
 * import's own rows and columns are easiest to mistake for the analyst's: a line typed inside the
 * rows the last replace wrote (with no id: it is not a partner), and a column inserted before the
 * id column of a merged table (the ids no longer sit where the import wrote them). Either the run
 * keeps the analyst's cells (with their partners, for merge) or it is refused and changes
 * nothing; it never erases them or leaves them on stale copies of the partners.
 */
import type { Emulator } from '../../../dev/emulator/runtime';
import { addin } from '../../helpers/addin';
import { runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, servicesForThisFile } from '../../helpers/service';

const services = servicesForThisFile(1, ['--partners', '40']);
let svc: RunningService;
beforeAll(() => {
  [svc] = services;
});

/** Writes `rows` as the sheet's whole content, as the analyst's edits leave it. */
function retype(emu: Emulator, name: string, rows: unknown[][]): void {
  const s = emu.workbook.byName(name);
  if (!s) throw new Error(`no sheet ${name}`);
  s.clear();
  rows.forEach((row, r) => row.forEach((v, c) => s.set(r, c, v as string | number)));
}

test('replace: a line the analyst typed inside the rows the last run wrote (no id) is never erased', () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Table', fields: ['id', 'fullName', 'firm'], mode: 'replace' });
  expect(runImport(a.emu, id).pop()?.status).toBe('done');
  const rows = sheet(a.emu, 'Table');
  expect(rows.length).toBeGreaterThan(10);
  const line = ['', 'Tier 2 partners below this line', 'checked by Ann'];
  // The analyst deleted the last partner's row and inserted one after the fifth partner, typed
  // without an id: every row is within the rows the last run wrote.
  retype(a.emu, 'Table', [...rows.slice(0, 6), line, ...rows.slice(6, -1)]);
  const before = sheet(a.emu, 'Table');

  const last = runImport(a.emu, id).pop();
  const after = sheet(a.emu, 'Table');
  if (last?.status === 'done') {
    expect(after).toContainEqual(expect.arrayContaining(line.slice(1)));
  } else {
    expect(last?.status).toBe('failed');
    expect(after).toEqual(before);
  }
});

test('merge: a column inserted before "id" keeps each note with its partner, and no partner is doubled', async () => {
  const a = addin(svc.url);
  const id = saveImport(a.emu, { sheetName: 'Merged', fields: ['id', 'fullName'], mode: 'merge' });
  expect(runImport(a.emu, id).pop()?.status).toBe('done');
  const rows = sheet(a.emu, 'Merged');
  const ids = rows.slice(1).map((r) => String(r[0]));
  expect(ids.length).toBeGreaterThan(10);
  retype(a.emu, 'Merged', [['Notes', ...rows[0]], ...rows.slice(1).map((r) => [`note:${String(r[0])}`, ...r])]);
  const before = sheet(a.emu, 'Merged');
  await svc.mutate({ reorder: 'reverse', touch: [ids[2]] });

  const last = runImport(a.emu, id).pop();
  const after = sheet(a.emu, 'Merged');
  if (last?.status !== 'done') {
    expect(last?.status).toBe('failed');
    expect(after).toEqual(before);
    return;
  }
  const header = after[0].map((h) => String(h).toLowerCase());
  const idCol = header.indexOf('id');
  const notesCol = header.indexOf('notes');
  expect(idCol).toBeGreaterThanOrEqual(0);
  expect(notesCol).toBeGreaterThanOrEqual(0);
  const body = after.slice(1).filter((r) => r.some((v) => v !== ''));
  expect(body.map((r) => String(r[idCol])).sort()).toEqual([...ids].sort());
  for (const r of body) expect(r[notesCol]).toBe(`note:${String(r[idCol])}`);
});

describe("an analyst's array formula beside the imported table survives the next run", () => {
  // An array formula in a column the analyst added (C), spilling one result per partner: writing any cell of its
  // result back as a value, even the one it showed, would block it (#REF!).
  for (const mode of ['merge', 'replace'] as const) {
    test(mode, async () => {
      const a = addin(svc.url);
      const id = saveImport(a.emu, { sheetName: 'Arrays', fields: ['id', 'fullName'], mode });
      expect(runImport(a.emu, id).pop()?.status).toBe('done');
      const rows = sheet(a.emu, 'Arrays');
      const s = a.emu.workbook.byName('Arrays');
      if (!s) throw new Error('no sheet Arrays');
      s.set(0, 2, 'Tier');
      const tiers = rows.slice(1).map((_, k) => [k % 2 ? 'B' : 'A']);
      s.spill(1, 2, '=ARRAYFORMULA(IF(ISEVEN(ROW(A2:A)), "A", "B"))', tiers);
      await svc.mutate({ touch: [String(rows[1][0])] });

      const last = runImport(a.emu, id).pop();
      const after = sheet(a.emu, 'Arrays');
      if (last?.status !== 'done') {
        // Refused (replace sees a column it did not write): nothing changed.
        expect(last?.status).toBe('failed');
        expect(after.map((r) => r[2])).toEqual(['Tier', ...tiers.map((t) => t[0])]);
        return;
      }
      expect(s.formulas.get('1,2')).toBe('=ARRAYFORMULA(IF(ISEVEN(ROW(A2:A)), "A", "B"))');
      expect(after.slice(1, rows.length).map((r) => r[2])).toEqual(tiers.map((t) => t[0]));
    });
  }
});
