/**
 * How Sheets reads text that is typed into a cell, which is also how it reads a string written
 * with Range.setValue/setValues (Google: values "parsed as if the user typed them into the UI …
 * strings may be converted to numbers, dates, etc."; Apps Script's setValues behaves like the
 * API's USER_ENTERED). The model, for the en_US locale and the spreadsheet's time zone (the
 * workbook's, Etc/UTC unless set): TRUE/FALSE in any case are booleans; numbers may carry a sign, thousands
 * separators (`1,234`), decimals and an exponent; a trailing `%` divides by 100; a leading `$`
 * (sign before or after it) is currency; dates are M/D/YYYY, M/D/YY (00–29 → 20xx), M/D (this
 * year), YYYY-MM-DD, YYYY/MM/DD and month names (`Jan 2, 2023`, `2 January 2023`), each with an
 * optional time; a time alone (`9:30`, `9:30:15 PM`) is a time of day. Impossible dates
 * (`2/30/2023`) stay text. Each parse also gives the number format Sheets picks, as it does.
 */

export interface TypedValue {
  value: number | boolean | Date;
  format?: string;
}

const NUMBER = /^([+-]?)(\$?)([+-]?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?(\s*%)?$/;
const TIME = String.raw`(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?(?:\s*([ap]\.?m\.?))?`;
const ISO_DATE = new RegExp(String.raw`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T\s]+${TIME})?$`, 'i');
const US_DATE = new RegExp(String.raw`^(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?:\s+${TIME})?$`, 'i');
const US_DASH_DATE = new RegExp(String.raw`^(\d{1,2})-(\d{1,2})-(\d{4})(?:\s+${TIME})?$`, 'i');
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const NAMED_MDY = new RegExp(String.raw`^${MONTH}\s+(\d{1,2}),?\s+(\d{4})$`, 'i');
const NAMED_DMY = new RegExp(String.raw`^(\d{1,2})\s+${MONTH},?\s+(\d{4})$`, 'i');
const TIME_ONLY = new RegExp(`^${TIME}$`, 'i');

/** What Sheets stores for this typed text, or undefined when it stays text. */
export function parseTypedText(input: string, now = new Date(), timeZone = 'Etc/UTC'): TypedValue | undefined {
  const text = input.trim();
  if (text === '') return undefined;
  if (/^(true|false)$/i.test(text)) return { value: text.toLowerCase() === 'true' };
  const typed = number(text) ?? date(text, now) ?? timeOfDay(text);
  return typed?.value instanceof Date ? { ...typed, value: new Date(inZone(typed.value.getTime(), timeZone)) } : typed;
}

/** The wall clock in `timeZone` at instant `at`: year, month, day, hour (00-23), minute, second, as two-digit text (four for the year). */
export function wallClock(
  at: number,
  timeZone: string,
): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', string> {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  return Object.fromEntries(parts.map((p) => [p.type, p.value])) as ReturnType<typeof wallClock>;
}

/** The instant a wall-clock time (given as if in UTC) reads in `timeZone` (its offset there, looked up twice for a change of offset). */
function inZone(wall: number, timeZone: string): number {
  const offset = (at: number) => {
    const w = wallClock(at, timeZone);
    const asUtc = Date.UTC(+w.year, +w.month - 1, +w.day, +w.hour, +w.minute, +w.second);
    return asUtc - Math.floor(at / 1000) * 1000;
  };
  const first = wall - offset(wall);
  return wall - offset(first);
}

function number(text: string): TypedValue | undefined {
  const m = NUMBER.exec(text);
  if (!m) return undefined;
  const [, sign1, currency, sign2, digits, exponent, percent] = m;
  if ((sign1 && sign2) || (currency && percent) || (sign2 && !currency)) return undefined;
  const grouped = digits.includes(',');
  if (exponent !== undefined && (grouped || currency || percent)) return undefined;
  let value = Number(`${digits.replace(/,/g, '')}${exponent !== undefined ? `e${exponent}` : ''}`);
  if (!Number.isFinite(value)) return undefined;
  if ((sign1 || sign2) === '-') value = -value;
  const decimals = digits.includes('.') ? '.00' : '';
  if (percent) return { value: value / 100, format: `0${decimals}%` };
  if (currency) return { value, format: '"$"#,##0.00' };
  if (grouped) return { value, format: `#,##0${decimals}` };
  if (exponent !== undefined) return { value, format: '0.00E+00' };
  return { value };
}

function date(text: string, now: Date): TypedValue | undefined {
  let m = ISO_DATE.exec(text);
  if (m) return at(Number(m[1]), Number(m[2]), Number(m[3]), m.slice(4), 'yyyy-mm-dd');
  m = US_DATE.exec(text) ?? US_DASH_DATE.exec(text);
  if (m) {
    const year =
      m[3] === undefined ? now.getUTCFullYear() : m[3].length === 2 ? twoDigitYear(Number(m[3])) : Number(m[3]);
    return at(year, Number(m[1]), Number(m[2]), m.slice(4), 'M/d/yyyy');
  }
  m = NAMED_MDY.exec(text);
  if (m) return at(Number(m[3]), monthOf(m[1]), Number(m[2]), [], 'mmm d, yyyy');
  m = NAMED_DMY.exec(text);
  if (m) return at(Number(m[3]), monthOf(m[2]), Number(m[1]), [], 'd mmmm yyyy');
  return undefined;
}

function timeOfDay(text: string): TypedValue | undefined {
  const m = TIME_ONLY.exec(text);
  if (!m) return undefined;
  const ms = clock(m.slice(1));
  return ms === undefined ? undefined : { value: new Date(Date.UTC(1899, 11, 30) + ms), format: 'h:mm:ss am/pm' };
}

const twoDigitYear = (yy: number): number => (yy < 30 ? 2000 + yy : 1900 + yy);
const monthOf = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

/** Milliseconds into the day for [hour, minute, second, am/pm], or undefined when out of range. */
function clock(parts: Array<string | undefined>): number | undefined {
  const [h, min, s, half] = parts;
  if (h === undefined) return 0;
  let hour = Number(h);
  const minute = Number(min);
  const second = s === undefined ? 0 : Number(s);
  if (half) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (/^p/i.test(half) ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second >= 60) return undefined;
  return ((hour * 60 + minute) * 60 + second) * 1000;
}

function at(
  year: number,
  month: number,
  day: number,
  time: Array<string | undefined>,
  format: string,
): TypedValue | undefined {
  if (month < 1 || month > 12 || day < 1 || year < 1000 || year > 9999) return undefined;
  const start = Date.UTC(year, month - 1, day);
  const d = new Date(start);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  const ms = clock(time);
  if (ms === undefined) return undefined;
  return { value: new Date(start + ms), format: time[0] === undefined ? format : `${format} H:mm:ss` };
}
