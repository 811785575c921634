/**
 * Cell typing: one service value into one cell value. Numbers stay numbers, timestamps become
 * dates, lists are joined readably, JSON is compact, text is cut to what a cell holds, and no
 * text ever becomes a formula. Two targets differ in one point: values returned by a custom
 * function are never parsed by Sheets (a string result stays text, so it gets no quote, which
 * would show), but strings written with setValues are, as if typed, so for the sheet target text
 * that Sheets would read as a formula, number, percent, currency, date, time or boolean gets a
 * quote prefix.
 */
import type { FieldType, JsonValue } from '../api/records';

export type Cell = string | number | boolean | Date;

/** A Date from any realm (instanceof fails across contexts). */
export const isDate = (v: unknown): v is Date => Object.prototype.toString.call(v) === '[object Date]';
export type CellTarget = 'formula' | 'sheet';

/** Sheets refuses more than this many characters in a cell. */
export const MAX_CELL_CHARS = 50000;
export const TRUNCATION_MARK = '… [truncated]';
const LIST_SEPARATOR = ', ';

/**
 * Text Sheets might read as something other than text when it is typed (or written with
 * setValues): a formula (`=`, `+`, `-`, `@`), a number with a sign, separators, decimals, an
 * exponent, a currency sign, a percent or accounting parentheses, a date or a time (digits first,
 * or a month name then a digit), a boolean; and text that already starts with a quote (Sheets
 * would eat it). The test is deliberately broad: a quote before text that would have stayed text
 * changes nothing (the cell reads back the same text), a missing one turns data into a value.
 */
const SHEETS_WOULD_PARSE =
  /^\s*(?:[=+\-@'(.$€£¥\d]|(?:true|false)\s*$|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d)/i;

/** Text as Sheets should keep it: cut to the cell limit, quote-prefixed where Sheets would parse it. */
export function safeText(text: string, target: CellTarget): string {
  const needsQuote = target === 'sheet' && SHEETS_WOULD_PARSE.test(text);
  const room = MAX_CELL_CHARS - (needsQuote ? 1 : 0);
  let end = room - TRUNCATION_MARK.length;
  // Never half a character: a cut between the two halves of a surrogate pair (an emoji) leaves a broken one.
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end--;
  const cut = text.length > room ? text.slice(0, end) + TRUNCATION_MARK : text;
  return needsQuote ? `'${cut}` : cut;
}

function itemText(item: JsonValue): string {
  if (item === null) return '';
  return typeof item === 'object' ? JSON.stringify(item) : String(item);
}

/** A finite number, sent as one or as text; a number too large for a double (`1e400`) is none. */
export function asNumber(value: JsonValue): number | undefined {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/.test(value)
        ? Number(value)
        : undefined;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Whether year-month-day names a day of the calendar (V8 would roll 2024-02-30 over to 1 March). */
function onCalendar(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number);
  return m >= 1 && m <= 12 && d >= 1 && d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** A date from ISO text or epoch milliseconds; undefined for anything else, a date out of JavaScript's range included. */
export function asDate(value: JsonValue): Date | undefined {
  const d =
    typeof value === 'string' && ISO_DATE.test(value.trim()) && onCalendar(value.trim())
      ? new Date(value.trim())
      : typeof value === 'number' && value > 1e11
        ? new Date(value)
        : undefined;
  return d && !Number.isNaN(d.getTime()) ? d : undefined;
}

/** One service value as a cell, by the field's declared type, tolerant of the value's real type. */
export function toCell(value: JsonValue | undefined, type: FieldType, target: CellTarget): Cell {
  if (value === undefined || value === null) return '';
  switch (type) {
    case 'integer':
    case 'float': {
      const n = asNumber(value);
      if (n !== undefined) return n;
      break;
    }
    case 'boolean':
      if (value === 'true' || value === 'false') return value === 'true';
      break;
    case 'datetime': {
      const d = asDate(value);
      if (d) return d;
      break;
    }
    case 'list':
      if (Array.isArray(value))
        return safeText(
          value
            .map(itemText)
            .filter((s) => s !== '')
            .join(LIST_SEPARATOR),
          target,
        );
      break;
    case 'json':
      return safeText(JSON.stringify(value), target);
  }
  // Anything not typed above keeps its own type: a number or boolean as it is, text made safe.
  // A number cell is finite: JSON.parse makes Infinity of a number too large for a double (1e400).
  if (typeof value === 'number') return Number.isFinite(value) ? value : safeText(String(value), target);
  if (typeof value === 'boolean') return value;
  if (Array.isArray(value)) return safeText(value.map(itemText).join(LIST_SEPARATOR), target);
  if (typeof value === 'object') return safeText(JSON.stringify(value), target);
  return safeText(value, target);
}
