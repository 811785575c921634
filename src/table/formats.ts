/**
 * The number format each field's column of an imported table is shown in, as Sheets would for a
 * value of its kind: times to the minute, sums of money in whole dollars with their thousands
 * grouped (a ticket size of 49901000 reads `$49,901,000`), counts grouped (`1,204`). The service
 * gives money as plain numbers (its ticket and cheque sizes, in dollars as the add-in's fit reasons
 * read them). A field of no such kind has no format of its own ('': Sheets' Automatic).
 */
import { FUND_FIELD_SPECS, LP_FIELD_SPECS } from '../api/records';

export const DATE_FORMAT = 'yyyy-mm-dd hh:mm';
export const MONEY_FORMAT = '$#,##0';
export const COUNT_FORMAT = '#,##0';

/** Fields whose values are sums of money. */
export const MONEY_FIELDS: readonly string[] = ['ticketSize', 'firstChequeMinimum', 'firstChequeMaximum'];

const formats = new Map<string, string>();
for (const f of [...LP_FIELD_SPECS, ...FUND_FIELD_SPECS]) {
  if (f.type === 'datetime') formats.set(f.name, DATE_FORMAT);
  else if (MONEY_FIELDS.includes(f.name)) formats.set(f.name, MONEY_FORMAT);
  else if (f.type === 'integer') formats.set(f.name, COUNT_FORMAT);
}

/** The number format of a field's column ('' when it has none, and for a column of no field). */
export const numberFormatOf = (field: string | undefined): string => (field && formats.get(field)) || '';
