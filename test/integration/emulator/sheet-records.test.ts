/**
 * A sheet's own developer metadata and whole-sheet protections in the emulator (the parts of
 * Google's API the add-in uses): added, read, changed and removed; kept across a rename, gone
 * with the sheet; one sheet protection, warning-only when asked, that a script's writes pass.
 */
import { Emulator } from '../../../dev/emulator/runtime';

const probe = `
function tag(name, key, value) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).addDeveloperMetadata(key, value); }
function tags(name) { return SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).getDeveloperMetadata().map(function (m) { return [m.getKey(), m.getValue()]; }); }
function untag(name, key) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name).getDeveloperMetadata().forEach(function (m) { if (m.getKey() === key) m.remove(); }); }
function guard(name) {
  var s = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name);
  s.protect().setDescription('mine').setWarningOnly(true);
  s.getRange(1, 1).setValue('written');
  return s.getProtections(SpreadsheetApp.ProtectionType.SHEET).map(function (p) { return [p.getDescription(), p.isWarningOnly()]; }).concat(s.getProtections(SpreadsheetApp.ProtectionType.RANGE).length);
}
function unguard(name) { var s = SpreadsheetApp.getActiveSpreadsheet().getSheetByName(name); s.getProtections(SpreadsheetApp.ProtectionType.SHEET).forEach(function (p) { p.remove(); }); return s.getProtections(SpreadsheetApp.ProtectionType.SHEET).length; }
function rename(from, to) { SpreadsheetApp.getActiveSpreadsheet().getSheetByName(from).setName(to); }
`;

test('sheet metadata: added, read, kept across a rename, removed; custom functions cannot add it', () => {
  const emu = new Emulator({ code: probe });
  emu.workbook.addSheet('Data');
  expect(emu.run('tag', ['Data', 'k', 'v1']).error).toBeUndefined();
  expect(emu.run('tag', ['Data', 'other']).error).toBeUndefined();
  emu.run('rename', ['Data', 'Renamed']);
  expect(emu.run('tags', ['Renamed']).value).toEqual([['k', 'v1'], ['other', null]]);
  emu.run('untag', ['Renamed', 'k']);
  expect(emu.run('tags', ['Renamed']).value).toEqual([['other', null]]);
  expect(emu.run('tag', ['Renamed', 'k', 'v'], { kind: 'custom-function' }).error).toMatch(/You do not have permission to call Sheet.addDeveloperMetadata/);
});

test('one sheet protection, warning-only when asked, that a script writes through; removed, it is gone', () => {
  const emu = new Emulator({ code: probe });
  emu.workbook.addSheet('Data');
  expect(emu.run('guard', ['Data']).value).toEqual([['mine', true], 0]);
  expect(emu.run('guard', ['Data']).value).toEqual([['mine', true], 0]);
  expect(emu.workbook.byName('Data')?.get(0, 0)).toBe('written');
  expect(emu.run('unguard', ['Data']).value).toBe(0);
});
