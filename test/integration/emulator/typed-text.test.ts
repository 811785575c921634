/**
 * The emulator reads strings written with setValue/setValues as Sheets reads typed text: numbers
 * with separators, percents, currency, dates, times and booleans become values (with the number
 * format Sheets picks); a quote prefix keeps any of them text; text that only looks close stays text.
 */
import { probe } from '../../helpers/probe';

const PROBES = `
function write(a1, values) { SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(a1).setValues(values); }
function writeOne(a1, value) { SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(a1).setValue(value); }
function read(a1) {
  var r = SpreadsheetApp.getActiveSpreadsheet().getSheets()[0].getRange(a1);
  return r.getValues()[0].map(function (v, i) {
    return { type: v instanceof Date ? 'date' : typeof v, value: v instanceof Date ? v.toISOString() : v, format: r.getNumberFormats()[0][i] };
  });
}
`;

type Read = { type: string; value: unknown; format: string };

function written(texts: string[]): Read[] {
  const emu = probe(PROBES);
  const a1 = `A1:${String.fromCharCode(64 + texts.length)}1`;
  const w = emu.run('write', [a1, [texts]]);
  if (w.error) throw new Error(w.error);
  return emu.run<Read[]>('read', [a1]).value as Read[];
}

describe('Sheets parsing of typed text, in setValues and setValue', () => {
  test.each([
    ['1,234', 1234, '#,##0'],
    ['-1,234.50', -1234.5, '#,##0.00'],
    ['50%', 0.5, '0%'],
    ['12.5%', 0.125, '0.00%'],
    ['$1,000', 1000, '"$"#,##0.00'],
    ['-$5', -5, '"$"#,##0.00'],
    ['$-5.25', -5.25, '"$"#,##0.00'],
    ['1e3', 1000, '0.00E+00'],
    [' 42 ', 42, 'General'],
    ['+7', 7, 'General'],
    ['00123', 123, 'General'],
  ])('%j is the number %d (format %s)', (text, value, format) => {
    expect(written([text])).toEqual([{ type: 'number', value, format }]);
  });

  test.each([
    ['1/2/2023', '2023-01-02T00:00:00.000Z', 'M/d/yyyy'],
    ['2020-01-02', '2020-01-02T00:00:00.000Z', 'yyyy-mm-dd'],
    ['12/31/99', '1999-12-31T00:00:00.000Z', 'M/d/yyyy'],
    ['3/4/21', '2021-03-04T00:00:00.000Z', 'M/d/yyyy'],
    ['2024/02/29', '2024-02-29T00:00:00.000Z', 'yyyy-mm-dd'],
    ['1-2-2023', '2023-01-02T00:00:00.000Z', 'M/d/yyyy'],
    ['2020-01-02 13:45', '2020-01-02T13:45:00.000Z', 'yyyy-mm-dd H:mm:ss'],
    ['1/2/2023 9:05:30 PM', '2023-01-02T21:05:30.000Z', 'M/d/yyyy H:mm:ss'],
    ['Jan 2, 2023', '2023-01-02T00:00:00.000Z', 'mmm d, yyyy'],
    ['2 January 2023', '2023-01-02T00:00:00.000Z', 'd mmmm yyyy'],
    ['9:30', '1899-12-30T09:30:00.000Z', 'h:mm:ss am/pm'],
  ])('%j is the date %s (format %s)', (text, iso, format) => {
    expect(written([text])).toEqual([{ type: 'date', value: iso, format }]);
  });

  test('TRUE and false in any case are booleans', () => {
    expect(written(['TRUE', 'false', 'True']).map((r) => r.value)).toEqual([true, false, true]);
    expect(written(['TRUE', 'false']).map((r) => r.type)).toEqual(['boolean', 'boolean']);
  });

  test('a quote prefix keeps every one of them text, without the quote', () => {
    const texts = ['1,234', '50%', '$1,000', '1/2/2023', '2020-01-02', 'TRUE', '9:30', '42'];
    expect(written(texts.map((t) => `'${t}`))).toEqual(
      texts.map((t) => ({ type: 'string', value: t, format: 'General' })),
    );
  });

  test('text that only looks close stays text', () => {
    const texts = [
      '2/30/2023',
      '13/1/2023',
      '1,23',
      '$1,000%',
      '12:75',
      'TRUE story',
      '1.2.3',
      '$',
      '%',
      '1/2/3/4',
      '$12M',
      'lp_00005',
    ];
    expect(written(texts).map((r) => [r.type, r.value])).toEqual(texts.map((t) => ['string', t]));
  });

  test('setValue parses the same way', () => {
    const emu = probe(PROBES);
    emu.run('writeOne', ['B2', '$1,000']);
    emu.run('writeOne', ['C2', 'false']);
    expect((emu.run<Read[]>('read', ['B2:C2']).value as Read[]).map((r) => r.value)).toEqual([1000, false]);
  });
});
