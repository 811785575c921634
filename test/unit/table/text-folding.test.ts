/**
 * The folded form search compares (src/table/search.ts, normalize): text with accents or folded
 * letters and punctuation at its ends folds to its words with no space left at either end, as
 * plain ASCII text does, so an accented name still matches itself whole.
 */
import { normalize, searchRecords } from '../../../src/table/search';

test('accented text with punctuation at its ends folds without a space at either end', () => {
  expect(normalize('«Müller-Łódź»')).toBe('muller lodz');
  expect(normalize(' (Ørsted) ')).toBe('orsted');
  expect(normalize('(Zoë)')).toBe(normalize('(Zoe)'));
});

test('an accented name between quotes is an exact match for the name typed plainly', () => {
  const records = [
    { id: 'a', fullName: 'Zoe Ørsted Holdings', activeStatus: 'ACTIVE' },
    { id: 'b', fullName: '"Zoë Ørsted"', activeStatus: 'ACTIVE' },
  ];
  expect(searchRecords(records, 'zoe orsted').map((r) => r.id)).toEqual(['b', 'a']);
});
