/**
 * More evidence never lowers a partner: for random funds, partners and weights (a seeded
 * generator, many cases), raising one criterion's evidence (one more of the fund's industries,
 * stages, regions or countries; a headquarters in a fund country; a ticket moved toward the band
 * that fits, or given where there was none; a usual backer's type added) never lowers that
 * criterion's points nor the score, and never changes another criterion's points.
 */
import type { JsonValue, ServiceRecord } from '../../../src/api/records';
import {
  CRITERIA,
  type Criterion,
  FUND_BACKERS,
  fundProfile,
  scorePartner,
  type Weights,
} from '../../../src/table/match';
import { mulberry32 } from '../../../dev/service/rng';

const INDUSTRIES = ['Fintech', 'SaaS', 'AI', 'Climate', 'Biotech', 'Edtech'];
const STAGES = ['Pre-seed', 'Seed', 'Series A', 'Growth'];
const REGIONS = ['Europe', 'North America', 'APAC', 'MENA'];
const COUNTRIES = ['Germany', 'France', 'Brazil', 'Japan', 'Kenya', 'Israel'];
const FUND_TYPES = [...Object.keys(FUND_BACKERS).map((k) => k.toUpperCase()), 'Family Office'];
const LP_TYPES = ['Angel', 'HNWI', 'Family Office', 'Corporate', 'Pension Fund', 'Endowment', 'Fund of Funds'];

type Rng = () => number;
const some = <T>(rng: Rng, items: readonly T[], min = 0): T[] => {
  const out = items.filter(() => rng() < 0.4);
  return out.length >= min ? out : [items[Math.floor(rng() * items.length)]];
};
const one = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
/** Sometimes missing: undefined, null or empty. */
const maybe = <T>(rng: Rng, value: T): T | null | undefined | [] => {
  const r = rng();
  return r < 0.1 ? undefined : r < 0.15 ? null : r < 0.2 ? [] : value;
};

function randomFund(rng: Rng): ServiceRecord {
  return {
    industries: maybe(rng, some(rng, INDUSTRIES, 1)),
    stageOfInvestment: maybe(rng, some(rng, STAGES, 1)),
    region: maybe(rng, some(rng, REGIONS, 1)),
    countriesOfInvestment: maybe(rng, some(rng, COUNTRIES, 1)),
    lastFundSize: rng() < 0.15 ? null : `$${Math.ceil(rng() * 900)}M`,
    investorType: rng() < 0.15 ? null : one(rng, FUND_TYPES),
  };
}

function randomPartner(rng: Rng): ServiceRecord {
  return {
    id: `lp_${Math.floor(rng() * 1e6)}`,
    sectorsFocused: maybe(rng, some(rng, INDUSTRIES)),
    investmentFocus: maybe(rng, some(rng, STAGES)),
    region: maybe(rng, some(rng, REGIONS)),
    countriesOfInvestment: maybe(rng, some(rng, COUNTRIES)),
    headquarters: rng() < 0.2 ? null : `City, ${one(rng, COUNTRIES)}`,
    ticketSize: rng() < 0.2 ? null : Math.round(10 ** (4 + rng() * 4)),
    investorType: maybe(rng, some(rng, LP_TYPES)),
  };
}

const list = (v: JsonValue | undefined): JsonValue[] => (Array.isArray(v) ? v : []);
const plus = (v: JsonValue | undefined, item: JsonValue): JsonValue[] => [...list(v), item];

/** The partner with one criterion's evidence raised, or undefined when the fund leaves nothing to raise. */
function raise(c: Criterion, p: ServiceRecord, f: ServiceRecord, rng: Rng): ServiceRecord | undefined {
  const from = (field: string) => list(f[field]);
  if (c === 'sectors' && from('industries').length)
    return { ...p, sectorsFocused: plus(p.sectorsFocused, one(rng, from('industries'))) };
  if (c === 'stage' && from('stageOfInvestment').length)
    return { ...p, investmentFocus: plus(p.investmentFocus, one(rng, from('stageOfInvestment'))) };
  if (c === 'geography') {
    const part = Math.floor(rng() * 3);
    if (part === 0 && from('region').length) return { ...p, region: plus(p.region, one(rng, from('region'))) };
    if (part === 1 && from('countriesOfInvestment').length)
      return { ...p, countriesOfInvestment: plus(p.countriesOfInvestment, one(rng, from('countriesOfInvestment'))) };
    if (part === 2 && from('countriesOfInvestment').length)
      return { ...p, headquarters: `Town, ${String(one(rng, from('countriesOfInvestment'))).toLowerCase()}` };
    return undefined;
  }
  if (c === 'ticket' && typeof f.lastFundSize === 'string') {
    const size = Number(f.lastFundSize.slice(1, -1)) * 1e6;
    const target = size * 0.03;
    // Toward the band's middle on a log scale, by a random share of the way; or a first ticket anywhere.
    const now = typeof p.ticketSize === 'number' ? p.ticketSize : undefined;
    const next = now === undefined ? 10 ** (4 + rng() * 4) : now * (target / now) ** rng();
    return { ...p, ticketSize: next };
  }
  if (c === 'type' && typeof f.investorType === 'string') {
    const backers = FUND_BACKERS[f.investorType.toLowerCase()] ?? [f.investorType];
    return { ...p, investorType: plus(p.investorType, one(rng, backers).toUpperCase()) };
  }
  return undefined;
}

test('raising one criterion evidence never lowers its points or the score, nor moves another criterion', () => {
  const rng = mulberry32(20251201);
  let raised = 0;
  const byCriterion = new Map<Criterion, number>();
  for (let i = 0; i < 5000; i++) {
    const f = randomFund(rng);
    const profile = fundProfile(f, 'vf_p');
    const weights = Object.fromEntries(CRITERIA.map((c) => [c, rng() < 0.15 ? 0 : Math.round(rng() * 50)])) as Weights;
    const p = randomPartner(rng);
    const c = one(rng, CRITERIA);
    const q = raise(c, p, f, rng);
    if (!q) continue;
    const before = scorePartner(p, profile, weights);
    const after = scorePartner(q, profile, weights);
    const context = JSON.stringify({ i, c, f, weights, p, q });
    if (after.score < before.score) throw new Error(`score fell ${before.score} → ${after.score}: ${context}`);
    before.verdicts.forEach((v, k) => {
      const w = after.verdicts[k];
      if (v.criterion === c ? w.points < v.points - 1e-9 : Math.abs(w.points - v.points) > 1e-9)
        throw new Error(`${v.criterion} moved ${v.points} → ${w.points}: ${context}`);
    });
    raised++;
    byCriterion.set(c, (byCriterion.get(c) ?? 0) + 1);
  }
  // The cases really exercised every criterion.
  expect(raised).toBeGreaterThan(3000);
  for (const c of CRITERIA) expect(byCriterion.get(c)).toBeGreaterThan(400);
});
