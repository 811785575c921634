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

const TYPES = new Map<string, string>([...LP_FIELD_SPECS, ...FUND_FIELD_SPECS].map((f) => [f.name, f.type]));

/** The number format of a field's column ('' when it has none, and for a column of no field). */
export function numberFormatOf(field: string | undefined): string {
  const type = TYPES.get(field ?? '');
  if (type === 'datetime') return DATE_FORMAT;
  if (MONEY_FIELDS.includes(field ?? '')) return MONEY_FORMAT;
  return type === 'integer' ? COUNT_FORMAT : '';
}
