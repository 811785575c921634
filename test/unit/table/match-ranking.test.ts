/**
 * The ranking: best score first, equal scores by id whatever the list's order, partners with no
 * fit left out, at most `limit`; weights change the points and leave out a criterion at 0; a fund
 * none of whose weighted criteria can be scored is refused with a message naming the fields.
 */
import {
  checkProfile,
  compareScored,
  DEFAULT_WEIGHTS,
  fitRecord,
  fundProfile,
  PARTNER_FIELDS_READ,
  rankPartners,
  scorePartner,
} from '../../../src/table/match';
import { makeFund, makePartner } from '../../../dev/service/generate';
import { fund, PERFECT, partner } from '../../helpers/match-fixtures';

const ids = (fits: ReturnType<typeof rankPartners>) => fits.map((f) => f.record.id);

describe('order', () => {
  const alike = { sectorsFocused: ['SaaS'], ticketSize: 1_000_000 };
  test('best first, ties by id whatever the input order', () => {
    const list = [
      partner('lp_c', alike),
      partner('lp_best', PERFECT),
      partner('lp_a', alike),
      partner('lp_b', alike),
      partner('lp_weak', { investmentFocus: ['Seed'] }),
    ];
    const expected = ['lp_best', 'lp_a', 'lp_b', 'lp_c', 'lp_weak'];
    expect(ids(rankPartners(list, fund()))).toEqual(expected);
    expect(ids(rankPartners([...list].reverse(), fund()))).toEqual(expected);
  });
  test('a partner with no fit at all is left out; the limit cuts the rest', () => {
    const list = [
      partner('lp_none', { sectorsFocused: ['Biotech'] }),
      partner('lp_x', PERFECT),
      partner('lp_y', alike),
    ];
    expect(ids(rankPartners(list, fund()))).toEqual(['lp_x', 'lp_y']);
    expect(ids(rankPartners(list, fund(), DEFAULT_WEIGHTS, 1))).toEqual(['lp_x']);
  });
  test('a record without a text id ranks after the ids among equals, and never throws', () => {
    const list = [partner('lp_z', alike), { ...alike, id: 7 }, partner('lp_a', alike)];
    expect(ids(rankPartners(list, fund()))).toEqual(['lp_a', 'lp_z', 7]);
  });
});

test('the order of two partners: better score first, then id, the same id and score are equal', () => {
  expect(compareScored(60, 'lp_b', 50, 'lp_a')).toBeLessThan(0);
  expect(compareScored(50, 'lp_a', 50, 'lp_b')).toBe(-1);
  expect(compareScored(50, 'lp_b', 50, 'lp_a')).toBe(1);
  expect(compareScored(50, 'lp_a', 50, 'lp_a')).toBe(0);
  expect(compareScored(50, '', 50, '')).toBe(0);
  expect(compareScored(50, '', 50, 'lp_a')).toBe(1);
  expect(compareScored(50, 'lp_a', 50, '')).toBe(-1);
});

describe('weights', () => {
  test('a weight changes the points; 0 leaves the criterion out of the verdicts and the score', () => {
    const w = { ...DEFAULT_WEIGHTS, sectors: 70, type: 0 };
    const fit = scorePartner(partner('p', { sectorsFocused: ['SaaS'], investorType: ['Angel'] }), fund(), w);
    expect(fit.verdicts.map((v) => v.criterion)).toEqual(['sectors', 'stage', 'geography', 'ticket']);
    expect(fit.verdicts[0].text).toBe("sectors 23/70: SaaS (1 of 3 of the fund's industries)");
    expect(fit.score).toBe(Math.round((100 * 70) / 3 / 125));
  });
  test('weights reorder the list: ticket alone puts the ticket that fits first', () => {
    const list = [partner('lp_sect', { sectorsFocused: ['SaaS', 'AI'] }), partner('lp_tick', { ticketSize: 3e6 })];
    expect(ids(rankPartners(list, fund()))).toEqual(['lp_sect', 'lp_tick']);
    const ticketOnly = { sectors: 0, stage: 0, geography: 0, ticket: 1, type: 0 };
    expect(ids(rankPartners(list, fund(), ticketOnly))).toEqual(['lp_tick']);
  });
});

describe('the fund', () => {
  test('a fund with none of the fields the ranking reads is refused, naming them', () => {
    const empty = fund({
      industries: null,
      stageOfInvestment: [],
      region: [],
      countriesOfInvestment: [],
      lastFundSize: '',
      investorType: null,
    });
    expect(() => checkProfile(empty, DEFAULT_WEIGHTS)).toThrow(
      'Fund vf_test gives none of the fields LP_MATCH compares (industries, stageOfInvestment, region, countriesOfInvestment, lastFundSize, investorType), so no partner can be ranked against it.',
    );
  });
  test('only the weighted criteria count: a fund without a size, ranked on ticket alone, is refused', () => {
    const noSize = fund({ lastFundSize: 'undisclosed' });
    expect(() => checkProfile(noSize, DEFAULT_WEIGHTS)).not.toThrow();
    expect(() => checkProfile(noSize, { sectors: 0, stage: 0, geography: 0, ticket: 5, type: 0 })).toThrow(
      'compares (lastFundSize)',
    );
  });
});

test('a ranked partner as a row: its record with rank, score and one reason per criterion', () => {
  const [fit] = rankPartners([partner('lp_x', PERFECT)], fund());
  expect(fitRecord(fit, 1)).toMatchObject({
    id: 'lp_x',
    fitRank: 1,
    fitScore: 100,
    fitSectors: "sectors 35/35: Fintech, SaaS, AI (3 of 3 of the fund's industries)",
    fitTicket: 'ticket 15/15: $2M is 2.5% of a $80M fund',
    fitType: 'type 10/10: Angel, a usual backer of Micro VC funds',
  });
});

test('the fields each criterion reads are all the ranking reads: on records of those and the id, every fund ranks every partner as on whole records', () => {
  const whole = Array.from({ length: 400 }, (_, i) => makePartner(11, i));
  const read = ['id', ...Object.values(PARTNER_FIELDS_READ).flat()];
  const has = Object.prototype.hasOwnProperty;
  const projected = whole.map((r) => Object.fromEntries(read.filter((f) => has.call(r, f)).map((f) => [f, r[f]])));
  for (let k = 0; k < 12; k++) {
    const f = fundProfile(makeFund(11, k), `vf_${k}`);
    const shown = (fits: ReturnType<typeof rankPartners>) =>
      fits.map((fit, i) => {
        const row = fitRecord(fit, i + 1);
        return [row.id, row.fitScore, row.fitSectors, row.fitStage, row.fitGeography, row.fitTicket, row.fitType];
      });
    const all = rankPartners(whole, f);
    expect(all.length).toBeGreaterThan(100);
    expect(shown(rankPartners(projected, f))).toEqual(shown(all));
  }
});

test('a listed field named "__proto__" stays an ordinary field of the ranked row, never its prototype', () => {
  const odd = JSON.parse('{"id":"lp_odd","__proto__":{"id":"lp_other","firm":"Injected"},"sectorsFocused":["SaaS"]}');
  const [fit] = rankPartners([odd], fund());
  const row = fitRecord(fit, 1);
  expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  expect(row.firm).toBeUndefined();
  expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ id: 'lp_other', firm: 'Injected' });
  expect(row).toMatchObject({ id: 'lp_odd', fitRank: 1 });
});

test('a fund whose type folds to the name of an object member ("constructor") ranks like any type without a rule', () => {
  for (const type of ['Constructor', 'CONSTRUCTOR']) {
    const f = fund({ investorType: type });
    const list = [partner('lp_same', { investorType: [type] }), partner('lp_angel', { investorType: ['Angel'] })];
    const fits = rankPartners(list, f, { sectors: 0, stage: 0, geography: 0, ticket: 0, type: 10 });
    expect(fits.map((x) => x.record.id)).toEqual(['lp_same']);
  }
});
