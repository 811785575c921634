/** How the workbench draws a cell: number formats (separators, decimals, percent, currency), date formats, kinds. */
import { cellView, formatDate, formatNumber } from '../../../dev/workbench/display';

describe('number formats, as Sheets applies them', () => {
  test.each([
    [25000000, '#,##0', '25,000,000'],
    [1234.5, '#,##0.00', '1,234.50'],
    [-1234.5, '#,##0', '-1,235'],
    [0.256, '0%', '26%'],
    [0.256, '0.0%', '25.6%'],
    [1500, '$#,##0.00', '$1,500.00'],
    [1500, '"USD "#,##0', 'USD 1,500'],
    [2.34567, '0.00', '2.35'],
    [2.5, '0.##', '2.5'],
    [1234567, 'General', '1234567'],
    [1234567, undefined, '1234567'],
    [0.1 + 0.2, undefined, '0.3'],
    [1234567, '@', '1234567'],
  ])('%p through %p shows %p', (n, format, text) => {
    expect(formatNumber(n, format)).toBe(text);
  });
});

describe('date formats (UTC, the workbench time zone)', () => {
  const d = new Date(Date.UTC(2024, 2, 5, 7, 9, 4));
  test.each([
    ['yyyy-mm-dd hh:mm', '2024-03-05 07:09'],
    ['yyyy-mm-dd', '2024-03-05'],
    ['d/m/yyyy h:mm:ss', '5/3/2024 7:09:04'],
    ['mm:ss', '09:04'],
  ])('%p shows %p', (format, text) => {
    expect(formatDate(d, format)).toBe(text);
  });
});

describe('what a cell is', () => {
  test('kinds decide alignment; the formula bar gets the formula or the raw value', () => {
    expect(cellView(1234.5, '#,##0', undefined, false)).toEqual({ text: '1,235', kind: 'n', input: '1234.5' });
    expect(cellView('2007', undefined, undefined, false)).toEqual({ text: '2007', kind: 's', input: '2007' });
    expect(cellView(true, undefined, undefined, false).kind).toBe('b');
    expect(cellView('#REF!', undefined, '=LP_GET(A2:A4)', false)).toEqual({
      text: '#REF!',
      kind: 'e',
      input: '=LP_GET(A2:A4)',
    });
    expect(cellView('#REF!', undefined, undefined, false).kind).toBe('s');
    expect(cellView('', undefined, '=SUM(1,2)', true)).toEqual({ text: '=SUM(1,2)', kind: 'f', input: '=SUM(1,2)' });
    expect(cellView(new Date(Date.UTC(2024, 2, 5, 7, 9, 4)), undefined, undefined, false)).toEqual({
      text: '2024-03-05 07:09',
      kind: 'd',
      input: '2024-03-05 07:09:04',
    });
  });
});
