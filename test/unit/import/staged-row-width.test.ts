/**
 * The cells an import stages per partner: its own columns only when it has no filters or sort;
 * with them, also whether the partner matches and one value per sort key. The staging sheet is
 * sized by the shape's width, so every staged row is exactly that wide.
 */
import { records } from '../../helpers/fake-list';
import { rowShape } from '../../../src/import/shape';
import { checkSpec } from '../../../src/import/spec';

const spec = (input: Record<string, unknown>) =>
  checkSpec({ sheetName: 'Partners', fields: ['id', 'fullName', 'firm'], ...input }, [], () => 'imp1');
const [record] = records(1);

test('without filters or sort, only the import’s own columns are staged', () => {
  const shape = rowShape(spec({}));
  expect(shape.width).toBe(3);
  expect(shape.row(record)).toEqual(['p0', 'Name 0', '']);
});

test.each([
  [{ filters: [{ field: 'region', op: 'is', value: 'europe' }] }, 4],
  [{ sort: [{ field: 'firm' }] }, 5],
  [{ sort: [{ field: 'firm' }, { field: 'ticketSize', descending: true }] }, 6],
])('with %j, each staged row is as wide as the shape says (%i cells)', (options, width) => {
  const shape = rowShape(spec(options));
  expect(shape.width).toBe(width);
  expect(shape.row(record)).toHaveLength(width);
});
