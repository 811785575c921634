/**
 * How the workbench shows a cell, as Sheets does: by the value's real type (numbers and dates
 * right-aligned, booleans centred, text left, error values), through the cell's number format
 * (`#,##0`, `0.00`, `0%`, `$#,##0.00`, `yyyy-mm-dd hh:mm`, … ; "Automatic" otherwise), and the
 * text the formula bar offers for editing (the formula, or the raw value).
 */
import { isDate } from '../emulator/realm';
import type { CellValue } from '../emulator/workbook';

/** n number, d date, b boolean, s text, e error value, f a formula the workbench keeps as text, . empty. */
export type CellKind = 'n' | 'd' | 'b' | 's' | 'e' | 'f' | '.';

export interface CellView {
  text: string;
  kind: CellKind;
  /** What the formula bar shows and Enter writes back unchanged. */
  input: string;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date through a Sheets date format (UTC, the workbench's time zone). `m`/`mm` after an hour or before seconds are minutes. */
export function formatDate(d: Date, format: string): string {
  const tokens = format.match(/yyyy|yy|mm|m|dd|d|hh|h|ss|s|[^ymdhs]+/gi) ?? [];
  return tokens
    .map((t, i) => {
      const lower = t.toLowerCase();
      const minutes =
        (lower === 'm' || lower === 'mm') &&
        (/^h/i.test(
          tokens
            .slice(0, i)
            .reverse()
            .find((x) => /^[ymdhs]/i.test(x)) ?? '',
        ) ||
          /^s/i.test(tokens.slice(i + 1).find((x) => /^[ymdhs]/i.test(x)) ?? ''));
      switch (lower) {
        case 'yyyy':
          return String(d.getUTCFullYear());
        case 'yy':
          return pad(d.getUTCFullYear() % 100);
        case 'mm':
          return pad(minutes ? d.getUTCMinutes() : d.getUTCMonth() + 1);
        case 'm':
          return String(minutes ? d.getUTCMinutes() : d.getUTCMonth() + 1);
        case 'dd':
          return pad(d.getUTCDate());
        case 'd':
          return String(d.getUTCDate());
        case 'hh':
          return pad(d.getUTCHours());
        case 'h':
          return String(d.getUTCHours());
        case 'ss':
          return pad(d.getUTCSeconds());
        case 's':
          return String(d.getUTCSeconds());
        default:
          return t;
      }
    })
    .join('');
}

/** Sheets' "Automatic" number display: integers in full, others to 10 significant digits, no separators. */
function automatic(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return String(Number(n.toPrecision(10)));
}

const NUMBER_FORMAT = /^((?:"[^"]*"|\\.|[^#0,.%"\\])*)([#0,]*[#0])(?:\.([#0]+))?(%?)((?:"[^"]*"|\\.|[^#0,.%"\\])*)$/;
const literal = (text: string) => text.replace(/"([^"]*)"/g, '$1').replace(/\\(.)/g, '$1');

/** A number through a Sheets number format (the first section of `pos;neg;zero`); Automatic when the format is not one it reads. */
export function formatNumber(n: number, format?: string): string {
  const section = format?.split(';')[0] ?? '';
  const m = NUMBER_FORMAT.exec(section);
  if (!m) return automatic(n);
  const [, prefix, whole, decimals = '', percent, suffix] = m;
  const value = Math.abs(percent ? n * 100 : n);
  const fixed = value.toFixed(decimals.length);
  let [int, frac = ''] = fixed.split('.');
  const optional = decimals.length - decimals.replace(/#+$/, '').length;
  for (let i = 0; i < optional && frac.endsWith('0'); i++) frac = frac.slice(0, -1);
  if (whole.includes(',')) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (!whole.includes('0') && int === '0') int = '';
  const sign = n < 0 && Number(fixed) !== 0 ? '-' : '';
  return `${sign}${literal(prefix)}${int}${frac ? `.${frac}` : ''}${percent}${literal(suffix)}`;
}

/** How a date without a date format shows (and is exported: Excel's default would drop the time). */
export const DEFAULT_DATE = 'yyyy-mm-dd hh:mm';

/** The cell as the page draws it; `keptAsText` marks a formula the workbench does not evaluate (shown as its text). */
export function cellView(
  value: CellValue,
  format: string | undefined,
  formula: string | undefined,
  keptAsText: boolean,
): CellView {
  if (formula && keptAsText) return { text: formula, kind: 'f', input: formula };
  const input = (text: string) => formula ?? text;
  if (isDate(value)) {
    const d = value as Date;
    const text = formatDate(d, format && /[ymdhs]/i.test(format) ? format : DEFAULT_DATE);
    return { text, kind: 'd', input: input(formatDate(d, 'yyyy-mm-dd hh:mm:ss')) };
  }
  if (typeof value === 'number')
    return { text: formatNumber(value, format), kind: 'n', input: input(automatic(value)) };
  if (typeof value === 'boolean')
    return { text: value ? 'TRUE' : 'FALSE', kind: 'b', input: input(value ? 'TRUE' : 'FALSE') };
  const text = value === undefined || value === null ? '' : String(value);
  if (formula && /^#[A-Z0-9/]+[!?]?$/.test(text)) return { text, kind: 'e', input: formula };
  return { text, kind: text === '' ? '.' : 's', input: input(text) };
}
