/**
 * Service text that Sheets would parse (`TRUE`, `1/2/2023`, `2020-01-02`, `50%`, `$1,000`,
 * `1,234`, times, month names) stays text: in an import's sheet, in the analyst's own columns a
 * merge writes back, and in what custom functions return (which Sheets does not parse). The
 * emulator parses strings written with setValues as Sheets does (test/integration/emulator/typed-text.test.ts),
 * so a missing quote prefix shows here as a boolean, a date or a number.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addin } from '../../helpers/addin';
import { formulasOf, runImport, saveImport, sheet } from '../../helpers/imports';
import { type RunningService, startService } from '../../helpers/service';

const BAIT: Record<string, string> = {
  fullName: 'TRUE',
  firm: '1/2/2023',
  description: '2020-01-02',
  email: '50%',
  sweetSpot: '$1,000',
  upvotes: '1,234',
  headquarters: 'false',
  tierBadge: '9:30',
  opinionBadge: 'Jan 2, 2023',
  phoneNumber: '-1,234',
  website: '(1,000)',
  address: '1e3',
};
const FIELDS = ['id', ...Object.keys(BAIT), 'expertise'];

let svc: RunningService;
beforeAll(async () => {
  const partners = [
    { id: 'lp_bait', activeStatus: 'ACTIVE', ...BAIT, expertise: ['12.5%'] },
    {
      id: 'lp_plain',
      activeStatus: 'ACTIVE',
      fullName: 'Ada Lovelace',
      firm: 'Analytical Capital',
      upvotes: '17',
      expertise: ['AI', 'SaaS'],
    },
  ];
  const file = join(mkdtempSync(join(tmpdir(), 'typed-text-')), 'data.json');
  writeFileSync(file, JSON.stringify({ limitedPartners: partners, ventureFunds: [] }));
  svc = await startService(['--data', file]);
});
afterAll(() => svc.stop());

describe('service text that Sheets would parse stays text', () => {
  test('an import writes every such value as the same text (no boolean, date or number), and no formula', () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Bait', fields: FIELDS, mode: 'replace' });
    expect(runImport(a.emu, id).pop()?.status).toBe('done');
    const table = sheet(a.emu, 'Bait');
    const row = table.find((r) => r[0] === 'lp_bait') as unknown[];
    expect(Object.fromEntries(FIELDS.map((f, i) => [f, row[i]]))).toEqual({
      id: 'lp_bait',
      ...BAIT,
      expertise: '12.5%',
    });
    const plain = table.find((r) => r[0] === 'lp_plain') as unknown[];
    expect(plain.slice(0, 3)).toEqual(['lp_plain', 'Ada Lovelace', 'Analytical Capital']);
    expect(plain[FIELDS.indexOf('upvotes')]).toBe('17');
    expect(formulasOf(a.emu, 'Bait')).toEqual([]);
  });

  test("a merge writes the analyst's own text back as text", () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, { sheetName: 'Merged', fields: ['id', 'fullName'], mode: 'merge' });
    runImport(a.emu, id);
    const s = a.emu.workbook.byName('Merged');
    if (!s) throw new Error('no sheet');
    const notes = ['3/4/2024', '75%'];
    s.set(0, 2, 'Notes');
    for (let r = 1; r < s.lastRow(); r++) s.set(r, 2, notes[r - 1]);
    expect(runImport(a.emu, id).pop()?.status).toBe('done');
    const after = sheet(a.emu, 'Merged');
    expect(after.slice(1).map((r) => r[2])).toEqual(notes);
    expect(after.find((r) => r[0] === 'lp_bait')?.[1]).toBe('TRUE');
  });

  test('custom functions return the text itself (Sheets does not parse formula results), without a quote', () => {
    const a = addin(svc.url);
    const cell = a.cell('LP_GET', 'lp_bait', FIELDS.join(','));
    expect(cell.error).toBeUndefined();
    expect(cell.value).toEqual([['lp_bait', ...Object.values(BAIT), '12.5%']]);
  });
});
