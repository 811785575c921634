/**
 * The weights argument of LP_MATCH: rows of criterion | weight, or text ("sectors 50, ticket 0");
 * a criterion not named keeps its default and 0 leaves it out; an unknown criterion, a weight that
 * is not a number from 0 to 1,000, a criterion named twice and every weight 0 are refused with a
 * message naming the item or row.
 */
import { DEFAULT_WEIGHTS, readWeights } from '../../../src/table/match';

describe('read', () => {
  test.each([
    ['blank', '', DEFAULT_WEIGHTS],
    ['spaces', '   ', DEFAULT_WEIGHTS],
    ['nothing', undefined, DEFAULT_WEIGHTS],
    ['null', null, DEFAULT_WEIGHTS],
    ['the largest weight', 'ticket 1000', { ...DEFAULT_WEIGHTS, ticket: 1000 }],
    [
      'spaces around an item and its parts',
      ' sectors 50 ,ticket  0 ;; ',
      { ...DEFAULT_WEIGHTS, sectors: 50, ticket: 0 },
    ],
    ['a weight as text with spaces in a range', [['stage', ' 7 ']], { ...DEFAULT_WEIGHTS, stage: 7 }],
    ['a criterion with spaces inside it', [[' Geo  Graphy ', 5]], { ...DEFAULT_WEIGHTS, geography: 5 }],
    [
      'a header row with spaces around its words',
      [
        [' Criteria ', ' Weight '],
        ['type', 0],
      ],
      { ...DEFAULT_WEIGHTS, type: 0 },
    ],
    ['text', 'sectors 50, ticket 0', { ...DEFAULT_WEIGHTS, sectors: 50, ticket: 0 }],
    [
      'text with = and :, any case, plurals',
      'Sectors=50; STAGES: 5\ngeography 1.5',
      { ...DEFAULT_WEIGHTS, sectors: 50, stage: 5, geography: 1.5 },
    ],
    ['text in a one-cell range', [['type 0']], { ...DEFAULT_WEIGHTS, type: 0 }],
    [
      'a range with a header row and a blank row',
      [
        ['criterion', 'weight'],
        ['geography', 40],
        ['', ''],
        ['Type', '0'],
      ],
      { ...DEFAULT_WEIGHTS, geography: 40, type: 0 },
    ],
    [
      'a range with a row of spaces only',
      [
        ['sectors', 5],
        ['  ', ' '],
      ],
      { ...DEFAULT_WEIGHTS, sectors: 5 },
    ],
  ])('%s', (_, input, expected) => {
    expect(readWeights(input)).toEqual(expected);
  });
});

describe('refused', () => {
  test.each([
    [
      'an unknown criterion in text',
      'size 3',
      'weights item 1: unknown criterion "size". Criteria: sectors, stage, geography, ticket, type.',
    ],
    [
      'an unknown criterion in a range',
      [
        ['sectors', 5],
        ['size', 3],
      ],
      'weights row 2: unknown criterion "size".',
    ],
    [
      'a weight that is not a number',
      'sectors lots',
      'weights item 1 (sectors): a weight is a number from 0 to 1000, got "lots".',
    ],
    ['a criterion without a weight', 'ticket', 'weights item 1 (ticket): a weight is a number from 0 to 1000, got "".'],
    ['a negative weight', [['ticket', -1]], 'weights row 1 (ticket): a weight is a number from 0 to 1000, got -1.'],
    ['a weight past 1,000', 'stage 1001', 'weights item 1 (stage): a weight is a number from 0 to 1000, got "1001".'],
    ['a criterion named twice', 'sectors 5, Sector 6', 'weights item 2: sectors is weighted twice.'],
    [
      'every weight 0',
      'sectors 0, stage 0, geography 0, ticket 0, type 0',
      'weights: every criterion weighs 0, so nothing would be ranked.',
    ],
    ['a boolean', true, 'weights row 1: unknown criterion true.'],
    ['a criterion named with spaces around it', [['  size  ', 3]], 'weights row 1: unknown criterion "size".'],
    ['a row without its criterion', [[undefined, 5]], 'weights row 1: unknown criterion undefined.'],
    [
      'a long unknown criterion, cut in the message',
      [['x'.repeat(60), 5]],
      `weights row 1: unknown criterion "${'x'.repeat(39)}. Criteria:`,
    ],
    ['a boolean weight', [['ticket', true]], 'weights row 1 (ticket): a weight is a number from 0 to 1000, got true.'],
    [
      'a weight that is no number',
      [['ticket', NaN]],
      'weights row 1 (ticket): a weight is a number from 0 to 1000, got null.',
    ],
    [
      'a long weight, cut in the message',
      `sectors ${'9'.repeat(60)}`,
      `weights item 1 (sectors): a weight is a number from 0 to 1000, got "${'9'.repeat(39)}.`,
    ],
    [
      'a column of criteria without weights',
      [['ticket'], ['sectors']],
      'weights row 1 (ticket): a weight is a number from 0 to 1000, got undefined.',
    ],
    [
      'a flat list of cells, read as a column',
      ['ticket', 'sectors'],
      'weights row 1 (ticket): a weight is a number from 0 to 1000, got undefined.',
    ],
    [
      'an item after an empty one, counted without it',
      'sectors 5;; size 3',
      'weights item 2: unknown criterion "size".',
    ],
    ['a weight followed by more', 'sectors 5 6', 'weights item 1: unknown criterion "sectors 5".'],
    [
      'a carriage return, which is no separator: the item is refused whole',
      'sectors 50\rticket 0',
      'weights item 1: unknown criterion "sectors 50\\rticket 0".',
    ],
    [
      'a header row after the first',
      [
        ['sectors', 5],
        ['criterion', 'weight'],
      ],
      'weights row 2: unknown criterion "criterion".',
    ],
    [
      'a first row that only contains the word criteria',
      [['my criteria', 'weight']],
      'weights row 1: unknown criterion "my criteria".',
    ],
    [
      'a first row that only starts with the word criterion',
      [['criterions', 'weight']],
      'weights row 1: unknown criterion "criterions".',
    ],
  ])('%s', (_, input, message) => {
    expect(() => readWeights(input)).toThrow(message);
  });
});
