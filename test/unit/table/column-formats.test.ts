/**
 * The number format each field's column is shown in (src/table/formats.ts): times to the minute,
 * money in whole dollars with grouped thousands, counts grouped, and Sheets' Automatic ('') for a
 * field of no such kind and for a column that holds no field.
 */
import { FUND_FIELD_SPECS, LP_FIELD_SPECS } from '../../../src/api/records';
import { COUNT_FORMAT, DATE_FORMAT, MONEY_FIELDS, MONEY_FORMAT, numberFormatOf } from '../../../src/table/formats';

test.each([
  ['createdAt', 'yyyy-mm-dd hh:mm'],
  ['updatedAt', 'yyyy-mm-dd hh:mm'],
  ['ticketSize', '$#,##0'],
  ['firstChequeMinimum', '$#,##0'],
  ['firstChequeMaximum', '$#,##0'],
  ['totalPortfolio', '#,##0'],
  ['fullName', ''],
  ['id', ''],
  ['no such field', ''],
])('the column of %s is shown as "%s"', (field, format) => {
  expect(numberFormatOf(field)).toBe(format);
});

test('a column of no field has no format of its own', () => {
  expect(numberFormatOf(undefined)).toBe('');
  expect(numberFormatOf('')).toBe('');
});

test('every field of a kind gets its kind’s format, a fund’s as a partner’s', () => {
  for (const f of [...LP_FIELD_SPECS, ...FUND_FIELD_SPECS]) {
    const want =
      f.type === 'datetime'
        ? DATE_FORMAT
        : MONEY_FIELDS.includes(f.name)
          ? MONEY_FORMAT
          : f.type === 'integer'
            ? COUNT_FORMAT
            : '';
    expect([f.name, numberFormatOf(f.name)]).toEqual([f.name, want]);
  }
  // The money fields are fields the service has (a partner's ticket size, a fund's cheque sizes).
  for (const m of MONEY_FIELDS) expect([...LP_FIELD_SPECS, ...FUND_FIELD_SPECS].some((f) => f.name === m)).toBe(true);
});
