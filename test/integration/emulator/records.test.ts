/**
 * Developer metadata and protections in the emulator, as Google documents them: metadata on the
 * spreadsheet, a sheet, a whole row or a whole column, refused on any other range with Google's
 * words; found with a finder; moving with its row or column, deleted with it or with its sheet,
 * kept across a rename and a rewrite of the values; size-limited per location. Warning-only
 * protections keep their range and description and let a script's edits through.
 */
import { probe } from '../../helpers/probe';

const SCRIPT = `
function tag() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  var sh = ss.getSheetByName('Data');
  sh.addDeveloperMetadata('owner', 'imp1');
  sh.getRange('C:C').addDeveloperMetadata('field', 'firm');
  sh.getRange('4:4').addDeveloperMetadata('row', 'r4');
  ss.addDeveloperMetadata('book', 'b');
  return 'ok';
}
function arbitrary(a1) {
  try { SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Data').getRange(a1).addDeveloperMetadata('x', 'y'); return 'added'; }
  catch (e) { return String(e.message); }
}
function numericColumn() {
  var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Data');
  try { sh.getRange(1, 2, sh.getMaxRows(), 1).addDeveloperMetadata('x'); return 'added'; } catch (e) { return 'refused'; }
}
function found() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  return ss.createDeveloperMetadataFinder().withKey('field').find().map(function (m) {
    return [m.getValue(), m.getLocation().getLocationType(), m.getLocation().getColumn().getColumn()];
  }).concat(ss.getSheetByName('Data') ? ss.getSheetByName('Data').getDeveloperMetadata().map(function (m) { return [m.getKey(), m.getValue()]; }) : [])
    .concat(ss.createDeveloperMetadataFinder().withLocationType(SpreadsheetApp.DeveloperMetadataLocationType.ROW).find().map(function (m) { return ['row', m.getLocation().getRow().getRow()]; }));
}
function insertAndRename() {
  var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Data');
  sh.insertColumnsAfter(1, 2);
  sh.insertRowsAfter(1, 1);
  sh.getRange(1, 1, 3, 3).setValues([['z', 'y', 'x'], ['1', '2', '3'], ['a', 'b', 'c']]);
  sh.setName('Renamed');
  return 'ok';
}
function columnFinder() {
  var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Renamed');
  return [sh.getRange('E:E').getDeveloperMetadata().length, sh.getRange('C:C').getDeveloperMetadata().length, sh.getRange('A:Z').createDeveloperMetadataFinder().withKey('field').find().length];
}
function deleteSheet() {
  var ss = SpreadsheetApp.getActiveSpreadsheet();
  ss.deleteSheet(ss.getSheetByName('Renamed'));
  return ss.createDeveloperMetadataFinder().find().map(function (m) { return m.getKey(); });
}
function tooBig() {
  var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Data');
  var big = new Array(20001).join('x');
  sh.addDeveloperMetadata('a', big);
  try { sh.getRange('B:B').addDeveloperMetadata('b', big); return 'added'; } catch (e) { return 'refused'; }
}
function protectIt() {
  var sh = SpreadsheetApp.getActiveSpreadsheet().getSheetByName('Data');
  sh.getRange('A1:C5').protect().setDescription('Written by an import').setWarningOnly(true);
  sh.getRange('A2').setValue('edited');
  sh.insertRowsAfter(0, 2);
  return SpreadsheetApp.getActiveSpreadsheet().getProtections(SpreadsheetApp.ProtectionType.RANGE).map(function (p) {
    return [p.getDescription(), p.isWarningOnly(), p.getRange().getA1Notation()];
  }).concat([[sh.getRange('A4').getValue()]]);
}
`;

function emulator() {
  const emu = probe(SCRIPT);
  emu.workbook.addSheet('Data');
  return emu;
}

test('metadata on a sheet, a whole column, a whole row and the spreadsheet, found by key and location type', () => {
  const emu = emulator();
  expect(emu.run('tag', []).value).toBe('ok');
  expect(emu.run('found', []).value).toEqual([
    ['firm', 'COLUMN', 3],
    ['owner', 'imp1'],
    ['row', 4],
  ]);
});

test("any range but one whole row or column is refused, in Google's words", () => {
  const emu = emulator();
  const refusal =
    'Adding developer metadata to arbitrary ranges is not currently supported. Developer metadata may only be added to the top-level spreadsheet, an individual sheet, or an entire row or column.';
  for (const a1 of ['A1', 'A1:C5', 'A:C', '2:3']) expect(emu.run('arbitrary', [a1]).value).toContain(refusal);
  expect(emu.run('numericColumn', []).value).toBe('refused');
});

test('column metadata moves with its column, stays through a rewrite and a rename, and dies with its sheet', () => {
  const emu = emulator();
  emu.run('tag', []);
  expect(emu.run('insertAndRename', []).error).toBeUndefined();
  expect(emu.run('columnFinder', []).value).toEqual([1, 0, 1]);
  expect(emu.run('deleteSheet', []).value).toEqual(['book']);
});

test('the metadata of one location is size-limited', () => {
  expect(emulator().run('tooBig', []).value).toBe('refused');
});

test('a warning-only protection keeps its description, moves with inserted rows and lets a script edit', () => {
  expect(emulator().run('protectIt', []).value).toEqual([['Written by an import', true, 'A3:C7'], ['edited']]);
});
