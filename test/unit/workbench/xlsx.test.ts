/**
 * The .xlsx export works whatever the sheets are called: names Excel refuses are mapped to
 * distinct names it accepts, every sheet's cells arrive, and formulas follow a renamed sheet.
 */
import ExcelJS from 'exceljs';
import { Workbook } from '../../../dev/emulator/workbook';
import { excelSheetNames, toXlsx } from '../../../dev/workbench/xlsx';

const LEGAL_IN_SHEETS = [
  'LPs 2024/25',
  'Q1: [draft]*?',
  `'quoted'`,
  'x'.repeat(40),
  `${'x'.repeat(31)}y`,
  'history',
  'Sheet1',
  'SHEET1 ',
  'a\\b',
];

test('names Excel refuses become distinct names it accepts; the others stay as they are', () => {
  const names = excelSheetNames(LEGAL_IN_SHEETS);
  expect(names[0]).toBe('LPs 2024-25');
  expect(names[6]).toBe('Sheet1');
  for (const n of names) {
    expect(n).not.toMatch(/[/\\?*[\]:]|^'|'$/);
    expect(n.length).toBeGreaterThan(0);
    expect(n.length).toBeLessThanOrEqual(31);
    expect(n.toLowerCase()).not.toBe('history');
  }
  expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
});

test('a workbook with every such name exports, each sheet with its cells, formulas pointing at the new names', async () => {
  const book = new Workbook('w', 'w');
  book.sheets[0].set(0, 0, 'first');
  LEGAL_IN_SHEETS.filter((n) => n !== 'Sheet1').forEach((name, i) => book.addSheet(name).set(0, 0, `value ${i}`));
  const sheet1 = book.byName('Sheet1');
  sheet1?.set(1, 0, 'lp_1');
  sheet1?.formulas.set('1,1', `=LP_GET('LPs 2024/25'!A1, "fullName")`);
  const xlsx = new ExcelJS.Workbook();
  await xlsx.xlsx.load((await toXlsx(book)) as unknown as ArrayBuffer);
  expect(xlsx.worksheets).toHaveLength(LEGAL_IN_SHEETS.length);
  const names = excelSheetNames(book.sheets.map((s) => s.name));
  book.sheets.forEach((s, i) => expect(xlsx.getWorksheet(names[i])?.getCell(1, 1).value).toBe(s.get(0, 0)));
  expect(xlsx.getWorksheet('Sheet1')?.getCell('B2').formula).toBe(`LP_GET('LPs 2024-25'!A1, "fullName")`);
});

test('a date keeps its time in the export: one without a date format gets the one the workbench shows', async () => {
  const book = new Workbook('w', 'w');
  const when = new Date(Date.UTC(2026, 10, 24, 9, 41));
  const sheet = book.sheets[0];
  sheet.set(0, 0, when);
  sheet.set(0, 1, when);
  sheet.formats.set('0,1', 'yyyy-mm-dd');
  const xlsx = new ExcelJS.Workbook();
  await xlsx.xlsx.load((await toXlsx(book)) as unknown as ArrayBuffer);
  const ws = xlsx.getWorksheet('Sheet1');
  expect(ws?.getCell('A1').numFmt).toBe('yyyy-mm-dd hh:mm');
  expect((ws?.getCell('A1').value as Date | undefined)?.getTime()).toBe(when.getTime());
  expect(ws?.getCell('B1').numFmt).toBe('yyyy-mm-dd');
});
