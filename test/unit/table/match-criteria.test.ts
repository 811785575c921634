/**
 * Each criterion of the LP_MATCH ranking gives its points and its reason in a few words: sectors
 * against the fund's industries, stage, geography (regions, countries, headquarters), ticket size
 * against the fund's size, investor type. Text compares as LP_FIND compares it (case, accents,
 * spaces); a partner's missing value is no evidence (0 points, said so); a criterion the fund
 * gives nothing for is not counted, for anyone.
 */
import {
  DEFAULT_WEIGHTS,
  fundProfile,
  moneyAmount,
  moneyText,
  scorePartner,
  ticketShare,
} from '../../../src/table/match';
import { fund, PERFECT, partner, verdict } from '../../helpers/match-fixtures';

describe('sectors: the share of the fund industries the partner focuses on', () => {
  test('two of three, whatever the case', () => {
    const v = verdict(partner('p', { sectorsFocused: ['FINTECH', 'saas', 'Biotech'] }), 'sectors');
    expect(v.text).toBe("sectors 23/35: Fintech, SaaS (2 of 3 of the fund's industries)");
    expect(v.points).toBeCloseTo((35 * 2) / 3);
  });
  test('none of them', () => {
    expect(verdict(partner('p', { sectorsFocused: ['Biotech'] }), 'sectors').text).toBe(
      "sectors 0/35: none of the fund's industries (Fintech, SaaS, AI)",
    );
  });
  test('a reason names at most four, then how many more; four are named in full', () => {
    const six = ['Fintech', 'SaaS', 'AI', 'Biotech', 'Climate', 'Edtech'];
    expect(verdict(partner('p', { sectorsFocused: six }), 'sectors', fund({ industries: six })).text).toBe(
      "sectors 35/35: Fintech, SaaS, AI, Biotech and 2 more (6 of 6 of the fund's industries)",
    );
    expect(
      verdict(partner('p', { sectorsFocused: ['x'] }), 'sectors', fund({ industries: six.slice(0, 4) })).text,
    ).toBe("sectors 0/35: none of the fund's industries (Fintech, SaaS, AI, Biotech)");
  });
  test('the fund words are shown without the spaces around them', () => {
    expect(
      verdict(partner('p', { sectorsFocused: ['fintech'] }), 'sectors', fund({ industries: ['  Fintech  ', 'AI'] }))
        .text,
    ).toBe("sectors 18/35: Fintech (1 of 2 of the fund's industries)");
  });
  test('no sectors at all is no evidence, said so', () => {
    for (const missing of [undefined, null, [], [''], '  '])
      expect(verdict(partner('p', { sectorsFocused: missing }), 'sectors').text).toBe('sectors 0/35: no sectors');
  });
});

describe('stage: the share of the fund stages in the partner investment focus', () => {
  test('one of two', () => {
    expect(verdict(partner('p', { investmentFocus: ['seed', 'Growth'] }), 'stage').text).toBe(
      "stage 10/20: Seed (1 of 2 of the fund's stages)",
    );
  });
  test('missing', () => {
    expect(verdict(partner('p'), 'stage').text).toBe('stage 0/20: no investment focus');
  });
  test('a fund without stages: not counted, even when it gives every other field', () => {
    const v = verdict(partner('p', { investmentFocus: ['Seed'] }), 'stage', fund({ stageOfInvestment: [] }));
    expect(v).toMatchObject({ counted: false, points: 0, text: 'stage not counted: the fund names no stages' });
  });
});

describe('geography: regions (half), countries (three tenths), headquarters in a fund country (a fifth)', () => {
  test('each part in its words', () => {
    const v = verdict(
      partner('p', { region: ['europe'], countriesOfInvestment: ['France', 'Spain'], headquarters: 'Paris, France' }),
      'geography',
    );
    expect(v.text).toBe(
      "geography 12/20: Europe (1 of 2 of the fund's regions); France (1 of 2 of the fund's countries); headquarters in France",
    );
    expect(v.points).toBeCloseTo(20 * (0.5 * 0.5 + 0.3 * 0.5 + 0.2));
  });
  test('accents and spaces do not matter in a headquarters', () => {
    const v = verdict(
      partner('p', { headquarters: 'Istanbul,  TURKIYE' }),
      'geography',
      fund({ countriesOfInvestment: ['Türkiye'] }),
    );
    expect(v.text).toContain('headquarters in Türkiye');
  });
  test('nothing known of the partner', () => {
    expect(verdict(partner('p'), 'geography').text).toBe(
      'geography 0/20: no region; no countries of investment; no headquarters',
    );
  });
  test('a headquarters elsewhere', () => {
    expect(verdict(partner('p', { headquarters: 'Oslo, Norway' }), 'geography').text).toContain(
      'headquarters elsewhere',
    );
  });
  test('a headquarters of punctuation only is no headquarters', () => {
    expect(verdict(partner('p', { headquarters: ' / ( ) ' }), 'geography').text).toBe(
      'geography 0/20: no region; no countries of investment; no headquarters',
    );
  });
  test('a fund without regions: countries and headquarters share the whole weight', () => {
    const v = verdict(
      partner('p', { region: ['Europe'], countriesOfInvestment: ['France'], headquarters: 'Paris, France' }),
      'geography',
      fund({ region: [] }),
    );
    expect(v.text).toBe("geography 14/20: France (1 of 2 of the fund's countries); headquarters in France");
    expect(v.points).toBeCloseTo((20 * (0.3 * 0.5 + 0.2)) / 0.5);
  });
  test('a fund without regions or countries: not counted', () => {
    const v = verdict(
      partner('p', { region: ['Europe'] }),
      'geography',
      fund({ region: [], countriesOfInvestment: [] }),
    );
    expect(v).toMatchObject({
      counted: false,
      points: 0,
      text: 'geography not counted: the fund names no regions or countries',
    });
  });
  test('a fund without countries: the regions take the whole weight', () => {
    const v = verdict(partner('p', { region: ['Europe'] }), 'geography', fund({ countriesOfInvestment: [] }));
    expect(v.text).toBe("geography 10/20: Europe (1 of 2 of the fund's regions)");
  });
});

describe('ticket: the ticket size as a share of the fund size', () => {
  test('inside 0.5 % to 10 %: full points', () => {
    expect(verdict(partner('p', { ticketSize: 2_000_000 }), 'ticket').text).toBe(
      'ticket 15/15: $2M is 2.5% of a $80M fund',
    );
    expect(verdict(partner('p', { ticketSize: '8000000' }), 'ticket').points).toBe(15);
  });
  test('below the band: falling on a log scale to nothing at 0.1 %', () => {
    const v = verdict(partner('p', { ticketSize: 200_000 }), 'ticket');
    expect(v.text).toBe('ticket 9/15: $200K is 0.25% of a $80M fund (fits 0.5%–10%)');
    expect(v.points).toBeCloseTo((15 * Math.log(2.5)) / Math.log(5));
    expect(verdict(partner('p', { ticketSize: 80_000 }), 'ticket').points).toBe(0);
  });
  test('above the band: nothing from 25 %', () => {
    expect(verdict(partner('p', { ticketSize: 40_000_000 }), 'ticket').text).toBe(
      'ticket 0/15: $40M is 50% of a $80M fund (fits 0.5%–10%)',
    );
    expect(verdict(partner('p', { ticketSize: 12_000_000 }), 'ticket').points).toBeGreaterThan(0);
  });
  test('a share of 1 % or more is shown to a tenth of a percent, a smaller one to a hundredth', () => {
    expect(verdict(partner('p', { ticketSize: 9_876_543 }), 'ticket').text).toBe(
      'ticket 12/15: $9.9M is 12.3% of a $80M fund (fits 0.5%–10%)',
    );
  });
  test('the share: full on the band edges, log-linear outside them', () => {
    expect(ticketShare(0.005)).toBe(1);
    expect(ticketShare(0.1)).toBe(1);
    expect(ticketShare(0.15)).toBeCloseTo(Math.log(0.25 / 0.15) / Math.log(0.25 / 0.1));
    expect(ticketShare(0.002)).toBeCloseTo(Math.log(2) / Math.log(5));
    expect(ticketShare(0.001)).toBe(0);
    expect(ticketShare(0.25)).toBe(0);
  });
  test('no ticket size', () => {
    for (const missing of [undefined, null, '', 'n/a', -5])
      expect(verdict(partner('p', { ticketSize: missing }), 'ticket').text).toBe('ticket 0/15: no ticket size');
  });
  test.each([
    ['$80M', 80e6],
    ['$1.2B', 1.2e9],
    ['80,000,000', 80e6],
    ['€250k', 250e3],
    ['undisclosed', undefined],
    ['-$5M (restated)', undefined],
    [0, undefined],
    ['$0M', undefined],
    ['0', undefined],
    [`1${'0'.repeat(400)}`, undefined],
    [['$5M'], undefined],
    [true, undefined],
  ])('the fund size %j reads as %p', (text, amount) => {
    expect(moneyAmount(text)).toBe(amount);
  });
  test.each([
    [1.2e9, '$1.2B'],
    [1e9, '$1B'],
    [1e6, '$1M'],
    [999_999_999, '$1000M'],
    [1e3, '$1K'],
    [250_000, '$250K'],
    [500, '$500'],
  ])('an amount of %p is shown as %s', (n, text) => {
    expect(moneyText(n)).toBe(text);
  });
});

describe('type: the partner among the usual backers of the fund type', () => {
  test('a backer', () => {
    expect(verdict(partner('p', { investorType: ['Pension Fund', 'angel'] }), 'type').text).toBe(
      'type 10/10: angel, a usual backer of Micro VC funds',
    );
  });
  test('not a backer', () => {
    expect(verdict(partner('p', { investorType: ['Pension Fund'] }), 'type').text).toBe(
      'type 0/10: Pension Fund, not a usual backer of Micro VC funds',
    );
  });
  test('a fund type without a rule matches the same type only', () => {
    const f = fund({ investorType: 'Family Office' });
    expect(verdict(partner('p', { investorType: ['family  office'] }), 'type', f).points).toBe(10);
    expect(verdict(partner('p', { investorType: ['Angel'] }), 'type', f).points).toBe(0);
  });
  test('missing', () => {
    expect(verdict(partner('p', { investorType: [] }), 'type').text).toBe('type 0/10: no investor type');
  });
});

describe('the score', () => {
  test('a partner who fits in full scores 100; the points are over the weights', () => {
    const fit = scorePartner(PERFECT, fund());
    expect(fit.score).toBe(100);
    expect(fit.verdicts.map((v) => v.points)).toEqual([35, 20, 20, 15, 10]);
  });
  test('a criterion the fund gives nothing for is not counted for anyone: the others make the 100', () => {
    const f = fund({ lastFundSize: null, industries: [] });
    const fit = scorePartner(PERFECT, f);
    expect(fit.score).toBe(100);
    expect(fit.verdicts.filter((v) => !v.counted).map((v) => v.text)).toEqual([
      'sectors not counted: the fund names no industries',
      'ticket not counted: the fund gives no size (lastFundSize)',
    ]);
    const half = scorePartner({ ...PERFECT, investmentFocus: ['Growth'] }, f);
    expect(half.score).toBe(Math.round((100 * 30) / 50));
  });
  test('a fund that gives nothing any criterion reads: every partner scores 0, never NaN', () => {
    const fit = scorePartner(PERFECT, fundProfile({ id: 'vf_bare' }, 'vf_bare'));
    expect(fit.score).toBe(0);
    expect(fit.verdicts.every((v) => !v.counted)).toBe(true);
  });
  test('the score rounds the exact points: 23.3 + 10 of 100 is 33', () => {
    const fit = scorePartner(partner('p', { sectorsFocused: ['Fintech', 'SaaS'], investmentFocus: ['Seed'] }), fund());
    expect(fit.score).toBe(33);
  });
  test('the fund record as the service sends it is read once', () => {
    expect(fund()).toEqual({
      id: 'vf_test',
      industries: [
        { key: 'fintech', text: 'Fintech' },
        { key: 'saas', text: 'SaaS' },
        { key: 'ai', text: 'AI' },
      ],
      stages: [
        { key: 'seed', text: 'Seed' },
        { key: 'series a', text: 'Series A' },
      ],
      regions: [
        { key: 'europe', text: 'Europe' },
        { key: 'north america', text: 'North America' },
      ],
      countries: [
        { key: 'germany', text: 'Germany' },
        { key: 'france', text: 'France' },
      ],
      size: 80e6,
      types: [{ key: 'micro vc', text: 'Micro VC' }],
      backers: new Set(['micro vc', 'angel', 'hnwi', 'family office', 'fund of funds']),
    });
    expect(DEFAULT_WEIGHTS).toEqual({ sectors: 35, stage: 20, geography: 20, ticket: 15, type: 10 });
  });
});
