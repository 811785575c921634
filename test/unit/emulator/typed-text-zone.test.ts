/**
 * The emulator reads typed dates and times in the spreadsheet's time zone, as Sheets does: a
 * typed day is midnight there, a typed date-time is that wall-clock time there (across a change
 * of offset too), and the zone is the workbook's, kept when the workbook is saved and read back.
 */
import { parseTypedText } from '../../../dev/emulator/typed-text';
import { interpretInput, Workbook } from '../../../dev/emulator/workbook';

const at = (text: string, zone: string) =>
  (parseTypedText(text, new Date('2024-06-01T00:00:00Z'), zone)?.value as Date | undefined)?.toISOString();

test.each([
  ['3/31/2024', 'Etc/UTC', '2024-03-31T00:00:00.000Z'],
  ['3/31/2024', 'America/New_York', '2024-03-31T04:00:00.000Z'],
  ['3/31/2024', 'Europe/Berlin', '2024-03-30T23:00:00.000Z'],
  ['4/1/2024', 'Europe/Berlin', '2024-03-31T22:00:00.000Z'],
  ['2024-01-01', 'Asia/Kolkata', '2023-12-31T18:30:00.000Z'],
  ['3/10/2024 3:30', 'America/New_York', '2024-03-10T07:30:00.000Z'],
  ['3/9/2024 23:30', 'America/New_York', '2024-03-10T04:30:00.000Z'],
])('%s typed in a %s spreadsheet is %s', (text, zone, iso) => {
  expect(at(text, zone)).toBe(iso);
});

test('numbers and text are read the same in any zone', () => {
  expect(interpretInput('1,234', 'Asia/Tokyo')).toEqual(interpretInput('1,234'));
  expect(interpretInput('Zürich', 'Asia/Tokyo')).toEqual({ value: 'Zürich' });
});

test("the workbook's zone is kept when it is saved and read back", () => {
  const book = new Workbook();
  expect(book.timeZone).toBe('Etc/UTC');
  book.timeZone = 'Europe/Berlin';
  expect(Workbook.fromJSON(JSON.parse(JSON.stringify(book.toJSON()))).timeZone).toBe('Europe/Berlin');
});
