/**
 * Limited partners ranked by fit to a venture fund (pure: no Apps Script), the engine behind
 * =LP_MATCH and an import sorted by fit. Five criteria, each worth its weight in points:
 *
 * - sectors: the partner's sectorsFocused against the fund's industries (the share of the fund's
 *   industries the partner names);
 * - stage: investmentFocus against stageOfInvestment (the share of the fund's stages);
 * - geography: region against the fund's regions (half), countriesOfInvestment against its
 *   countries (three tenths), and headquarters in one of those countries (one fifth); a part the
 *   fund gives nothing for is left out and the others share its weight;
 * - ticket: ticketSize against the fund's size (lastFundSize, text such as "$80M"): full points
 *   from 0.5 % to 10 % of the fund, falling (on a log scale) to nothing at 0.1 % and at 25 %;
 * - type: the partner's investorType among the usual backers of the fund's investorType
 *   (FUND_BACKERS), or the same type.
 *
 * Text compares as LP_FIND compares it (`normalize`: case, accents, punctuation and spaces do not
 * matter). A partner's missing value is no evidence: 0 points, and its reason says so, never a
 * mismatch. A criterion the fund gives nothing for is not counted, for every partner alike. The
 * score is the points over the weights counted, as a whole percentage; partners scoring 0 are
 * left out; ties go by id. Every rule has its reason in a few words, beside its points.
 */
import { badInput } from '../api/errors';
import { type FieldSpec, type JsonValue, put, type ServiceRecord } from '../api/records';
import { asNumber } from './cells';
import { normalize, texts } from './search';

export const CRITERIA = ['sectors', 'stage', 'geography', 'ticket', 'type'] as const;
export type Criterion = (typeof CRITERIA)[number];
export type Weights = Readonly<Record<Criterion, number>>;

export const DEFAULT_WEIGHTS: Weights = { sectors: 35, stage: 20, geography: 20, ticket: 15, type: 10 };
/** Largest weight one criterion may have. */
export const MAX_WEIGHT = 1000;

/** The fund's fields each criterion reads (for messages). */
const FUND_FIELDS_READ: Readonly<Record<Criterion, string>> = {
  sectors: 'industries',
  stage: 'stageOfInvestment',
  geography: 'region, countriesOfInvestment',
  ticket: 'lastFundSize',
  type: 'investorType',
};

/** The computed columns of a ranking: rank, score and one reason per criterion (LP_MATCH's, and an import's fields). */
export const FIT_FIELD_SPECS: readonly FieldSpec[] = [
  { name: 'fitRank', type: 'integer' },
  { name: 'fitScore', type: 'integer' },
  ...CRITERIA.map((c): FieldSpec => ({ name: fitField(c), type: 'string' })),
];
export const FIT_FIELDS: readonly string[] = FIT_FIELD_SPECS.map((s) => s.name);

/** The column of a criterion's reason: fitSectors, fitStage, … */
export function fitField(c: Criterion): string {
  return `fit${c[0].toUpperCase()}${c.slice(1)}`;
}

const FIT_FIELD_OF = Object.fromEntries(CRITERIA.map((c) => [c, fitField(c)])) as Readonly<Record<Criterion, string>>;

/**
 * The usual backers of each kind of fund (folded type → folded partner types): a Micro VC raises
 * from angels, wealthy individuals and family offices, a growth fund from institutions, a
 * corporate fund from its corporate parent. A fund type not listed matches only the same type.
 */
export const FUND_BACKERS: Readonly<Record<string, readonly string[]>> = {
  vc: ['fund of funds', 'family office', 'endowment', 'foundation', 'pension fund', 'hnwi'],
  'micro vc': ['angel', 'hnwi', 'family office', 'fund of funds'],
  cvc: ['corporate'],
  'growth equity': ['pension fund', 'sovereign wealth fund', 'endowment', 'fund of funds', 'insurance'],
};

const has = Object.prototype.hasOwnProperty;

/** Ticket size as a share of the fund: full points in [FULL_FROM, FULL_TO], none outside (NONE_BELOW, NONE_ABOVE). */
export const TICKET_SHARE = { noneBelow: 0.001, fullFrom: 0.005, fullTo: 0.1, noneAbove: 0.25 } as const;

/** A value of a list as compared (`key`, folded) and as shown (`text`). */
interface Term {
  key: string;
  text: string;
}

/** What the ranking reads of a fund, folded once. */
export interface FundProfile {
  id: string;
  industries: Term[];
  stages: Term[];
  regions: Term[];
  countries: Term[];
  /** The fund's size in dollars (from lastFundSize), when it gives one. */
  size?: number;
  types: Term[];
  /** The partner types that usually back a fund of its types (FUND_BACKERS), and those types themselves. */
  backers: ReadonlySet<string>;
}

export interface Verdict {
  criterion: Criterion;
  /** Points won, 0 to the weight (exact; shown rounded). */
  points: number;
  weight: number;
  /** False when the fund gives nothing this criterion reads: not counted for anyone. */
  counted: boolean;
  /** "sectors 20/35: Fintech, SaaS (2 of 3 of the fund's industries)". */
  text: string;
}

export interface Fit {
  record: ServiceRecord;
  /** 0 to 100, whole. */
  score: number;
  verdicts: Verdict[];
}

/** The distinct terms of a value (a list, or one text), in order, folded; blanks left out. */
function terms(value: JsonValue | undefined): Term[] {
  const seen = new Map<string, Term>();
  for (const text of texts(value)) {
    const key = normalize(text);
    if (key && !seen.has(key)) seen.set(key, { key, text: text.trim() });
  }
  return [...seen.values()];
}

const MONEY = /^\s*(?:us)?[$€£]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(k|thousand|m|mm|mn|million|b|bn|billion)?\b/i;
const SCALE: Readonly<Record<string, number>> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mm: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
};

/** An amount of money as the service writes it ("$80M", "$1.2B", "250000", 5e6); undefined unless positive. */
export function moneyAmount(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = MONEY.exec(value);
  if (!m) return asNumber(value);
  const n = Number(m[1].replace(/,/g, '') + (m[2] ?? '')) * (m[3] ? SCALE[m[3].toLowerCase()] : 1);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/** "$2.5M", "$250K", "$1.2B": an amount as a reason shows it. */
export function moneyText(n: number): string {
  const [unit, div] = n >= 1e9 ? ['B', 1e9] : n >= 1e6 ? ['M', 1e6] : n >= 1e3 ? ['K', 1e3] : ['', 1];
  return `$${String(Math.round((n / (div as number)) * 10) / 10)}${unit}`;
}

/** What the ranking reads of a fund record. */
export function fundProfile(fund: ServiceRecord, id: string): FundProfile {
  const types = terms(fund.investorType);
  return {
    id,
    industries: terms(fund.industries),
    stages: terms(fund.stageOfInvestment),
    regions: terms(fund.region),
    countries: terms(fund.countriesOfInvestment),
    size: moneyAmount(fund.lastFundSize),
    types,
    // Own entries only: a fund of type "constructor" has no rule, not Object's constructor.
    backers: new Set(types.flatMap((t) => [t.key, ...(has.call(FUND_BACKERS, t.key) ? FUND_BACKERS[t.key] : [])])),
  };
}

/** Whether the fund gives anything a criterion reads. */
function countedFor(c: Criterion, f: FundProfile): boolean {
  if (c === 'sectors') return f.industries.length > 0;
  if (c === 'stage') return f.stages.length > 0;
  if (c === 'geography') return f.regions.length + f.countries.length > 0;
  if (c === 'ticket') return f.size !== undefined;
  return f.types.length > 0;
}

/** Refuses a fund none of whose weighted criteria can be scored: every partner would score nothing. */
export function checkProfile(f: FundProfile, weights: Weights): void {
  const weighted = CRITERIA.filter((c) => weights[c] > 0);
  if (weighted.some((c) => countedFor(c, f))) return;
  throw badInput(
    `Fund ${f.id} gives none of the fields LP_MATCH compares (${weighted.map((c) => FUND_FIELDS_READ[c]).join(', ')}), so no partner can be ranked against it.`,
  );
}

/** The first few texts, then how many more. */
function listed(items: readonly Term[], most = 4): string {
  const shown = items.slice(0, most).map((t) => t.text);
  return items.length > most ? `${shown.join(', ')} and ${items.length - most} more` : shown.join(', ');
}

/** The fund's terms the partner also names. */
const shared = (fund: readonly Term[], partner: readonly Term[]): Term[] => {
  const keys = new Set(partner.map((t) => t.key));
  return fund.filter((t) => keys.has(t.key));
};

/**
 * Share of a fund list the partner covers, and its words: "Fintech, SaaS (2 of 3 of the fund's
 * industries)"; `none` says what the partner lacks ("no sectors").
 */
function coverage(
  fund: readonly Term[],
  value: JsonValue | undefined,
  noun: string,
  none: string,
): { share: number; text: string } {
  const mine = terms(value);
  if (!mine.length) return { share: 0, text: none };
  const both = shared(fund, mine);
  if (!both.length) return { share: 0, text: `none of the fund's ${noun} (${listed(fund)})` };
  return {
    share: both.length / fund.length,
    text: `${listed(both)} (${both.length} of ${fund.length} of the fund's ${noun})`,
  };
}

/** The places of a headquarters text ("Berlin, Germany" → berlin, germany), folded. */
const places = (hq: JsonValue | undefined): string[] =>
  texts(hq)
    .flatMap((t) => t.split(/[,;/()]/))
    .map(normalize)
    .filter((p) => p !== '');

/** Geography: regions (0.5), countries (0.3), headquarters in a fund country (0.2), over the parts the fund gives. */
function geography(f: FundProfile, r: ServiceRecord): { share: number; text: string } {
  const parts: Array<{ weight: number; share: number; text: string }> = [];
  if (f.regions.length) {
    const c = coverage(f.regions, r.region, 'regions', 'no region');
    parts.push({ weight: 0.5, ...c });
  }
  if (f.countries.length) {
    const c = coverage(f.countries, r.countriesOfInvestment, 'countries', 'no countries of investment');
    parts.push({ weight: 0.3, ...c });
    const at = places(r.headquarters);
    const home = f.countries.find((t) => at.includes(t.key));
    parts.push({
      weight: 0.2,
      share: home ? 1 : 0,
      text: !at.length ? 'no headquarters' : home ? `headquarters in ${home.text}` : 'headquarters elsewhere',
    });
  }
  const total = parts.reduce((n, p) => n + p.weight, 0);
  return {
    share: parts.reduce((n, p) => n + p.weight * p.share, 0) / total,
    text: parts.map((p) => p.text).join('; '),
  };
}

const percent = (x: number): string =>
  `${String(x >= 0.01 ? Math.round(x * 1000) / 10 : Math.round(x * 10000) / 100)}%`;

/** Share of full points for a ticket that is `ratio` of the fund: 1 inside the band, log-linear to 0 outside it. */
export function ticketShare(ratio: number): number {
  const { noneBelow, fullFrom, fullTo, noneAbove } = TICKET_SHARE;
  if (ratio >= fullFrom && ratio <= fullTo) return 1;
  if (ratio > noneBelow && ratio < fullFrom) return Math.log(ratio / noneBelow) / Math.log(fullFrom / noneBelow);
  if (ratio > fullTo && ratio < noneAbove) return Math.log(noneAbove / ratio) / Math.log(noneAbove / fullTo);
  return 0;
}

function ticket(f: FundProfile, r: ServiceRecord): { share: number; text: string } {
  const size = f.size as number;
  const mine = moneyAmount(r.ticketSize);
  if (mine === undefined) return { share: 0, text: 'no ticket size' };
  const ratio = mine / size;
  const share = ticketShare(ratio);
  const band = share < 1 ? ` (fits ${percent(TICKET_SHARE.fullFrom)}–${percent(TICKET_SHARE.fullTo)})` : '';
  return { share, text: `${moneyText(mine)} is ${percent(ratio)} of a ${moneyText(size)} fund${band}` };
}

function investorType(f: FundProfile, r: ServiceRecord): { share: number; text: string } {
  const mine = terms(r.investorType);
  if (!mine.length) return { share: 0, text: 'no investor type' };
  const fits = mine.filter((t) => f.backers.has(t.key));
  const kind = `${listed(f.types)} funds`;
  return fits.length
    ? { share: 1, text: `${listed(fits)}, a usual backer of ${kind}` }
    : { share: 0, text: `${listed(mine)}, not a usual backer of ${kind}` };
}

const WHAT: Readonly<Record<Criterion, string>> = {
  sectors: 'the fund names no industries',
  stage: 'the fund names no stages',
  geography: 'the fund names no regions or countries',
  ticket: 'the fund gives no size (lastFundSize)',
  type: 'the fund gives no investor type',
};

/**
 * The partner's fields each criterion reads (judge): a ranking over records that hold these and the
 * id scores as it would over whole ones, so LP_MATCH reads only their column copies.
 */
export const PARTNER_FIELDS_READ: Readonly<Record<Criterion, readonly string[]>> = {
  sectors: ['sectorsFocused'],
  stage: ['investmentFocus'],
  geography: ['region', 'countriesOfInvestment', 'headquarters'],
  ticket: ['ticketSize'],
  type: ['investorType'],
};

function judge(c: Criterion, f: FundProfile, r: ServiceRecord): { share: number; text: string } {
  if (c === 'sectors') return coverage(f.industries, r.sectorsFocused, 'industries', 'no sectors');
  if (c === 'stage') return coverage(f.stages, r.investmentFocus, 'stages', 'no investment focus');
  if (c === 'geography') return geography(f, r);
  if (c === 'ticket') return ticket(f, r);
  return investorType(f, r);
}

/** One partner against the fund: a verdict per weighted criterion, and the score. */
export function scorePartner(record: ServiceRecord, f: FundProfile, weights: Weights = DEFAULT_WEIGHTS): Fit {
  let won = 0;
  let possible = 0;
  const verdicts: Verdict[] = [];
  for (const c of CRITERIA) {
    const weight = weights[c];
    if (!(weight > 0)) continue;
    if (!countedFor(c, f)) {
      verdicts.push({ criterion: c, points: 0, weight, counted: false, text: `${c} not counted: ${WHAT[c]}` });
      continue;
    }
    const { share, text } = judge(c, f, record);
    const points = weight * share;
    won += points;
    possible += weight;
    verdicts.push({
      criterion: c,
      points,
      weight,
      counted: true,
      text: `${c} ${shownPoints(points)}/${String(weight)}: ${text}`,
    });
  }
  return { record, score: possible > 0 ? Math.round((100 * won) / possible) : 0, verdicts };
}

/** Points as a reason shows them: whole (the score is computed from the exact ones). */
const shownPoints = (n: number): string => String(Math.round(n));

/** A partner's id for the tie order: its text, or '' (such records come last among equals). */
const idOf = (r: ServiceRecord): string => (typeof r.id === 'string' ? r.id : '');

/** Better score first; equal scores by id (code-unit order, '' last), so the order never depends on the list's. */
export function compareScored(scoreA: number, idA: string, scoreB: number, idB: string): number {
  if (scoreA !== scoreB) return scoreB - scoreA;
  if (idA === idB) return 0;
  if (idA === '' || idB === '') return idA === '' ? 1 : -1;
  return idA < idB ? -1 : 1;
}

/** Best fit first; equal scores by id. */
export const compareFits = (a: Fit, b: Fit): number => compareScored(a.score, idOf(a.record), b.score, idOf(b.record));

/** The partners with some fit, best first, at most `limit`. */
export function rankPartners(
  records: readonly ServiceRecord[],
  f: FundProfile,
  weights: Weights = DEFAULT_WEIGHTS,
  limit = Number.POSITIVE_INFINITY,
): Fit[] {
  const fits: Fit[] = [];
  for (const r of records) {
    const fit = scorePartner(r, f, weights);
    if (fit.score > 0) fits.push(fit);
  }
  fits.sort(compareFits);
  return fits.slice(0, limit);
}

/** A partner's record with its ranking columns (FIT_FIELD_SPECS) added, for rows. */
export function fitRecord(fit: Fit, rank: number): ServiceRecord {
  // Field by field (some ten times faster than a spread with fields added after it), a field named "__proto__" an own one.
  const out: ServiceRecord = {};
  for (const key of Object.keys(fit.record)) put(out, key, fit.record[key] as JsonValue);
  out.fitRank = rank;
  out.fitScore = fit.score;
  for (const v of fit.verdicts) out[FIT_FIELD_OF[v.criterion]] = v.text;
  return out;
}

const blank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A criterion as typed: case, spaces and a trailing s do not matter. */
function criterionOf(name: unknown, where: string): Criterion {
  const key = typeof name === 'string' ? normalize(name).replace(/\s+/g, '') : '';
  const found = CRITERIA.find((c) => c.replace(/s$/, '') === key.replace(/s$/, ''));
  if (!found)
    throw badInput(
      `${where}: unknown criterion ${JSON.stringify(typeof name === 'string' ? name.trim() : name)?.slice(0, 40)}. Criteria: ${CRITERIA.join(', ')}.`,
    );
  return found;
}

/** A weight: a finite number, or number text (asNumber: spaces around it allowed), from 0 to MAX_WEIGHT. */
function weightOf(value: unknown, where: string): number {
  const n = asNumber(value as JsonValue);
  if (n === undefined || n < 0 || n > MAX_WEIGHT)
    throw badInput(
      `${where}: a weight is a number from 0 to ${MAX_WEIGHT}, got ${JSON.stringify(value)?.slice(0, 40)}.`,
    );
  return n;
}

/** "sectors 50, ticket 0" or "sectors=50; stage: 20": pairs of criterion and weight. */
function pairsOfText(text: string): unknown[][] {
  return text
    .split(/[,;\n]/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      const m = /^(.*?)(?:\s*[=:]\s*|\s+)(\S+)$/.exec(p);
      return m ? [m[1], m[2]] : [p, ''];
    });
}

/**
 * The weights argument: a range of criterion | weight rows (a first row "criterion | weight" is
 * a header), or text such as "sectors 50, ticket 0". A criterion not named keeps its default; 0
 * leaves it out. Refused, naming the row: an unknown criterion, a weight that is not a number from
 * 0 to 1,000, a criterion named twice, and every weight 0.
 */
export function readWeights(input: unknown): Weights {
  // Blank (undefined, null, spaces) needs no case of its own: it reads as no rows, which keep the defaults.
  const single = Array.isArray(input) ? oneValueOrRange(input) : input;
  const rows =
    typeof single === 'string'
      ? pairsOfText(single)
      : Array.isArray(single)
        ? single.map((r) => (Array.isArray(r) ? r : [r]))
        : [[single]];
  const out: Record<Criterion, number> = { ...DEFAULT_WEIGHTS };
  const named = new Set<Criterion>();
  rows.forEach((row, i) => {
    if (row.every(blank)) return;
    if (i === 0 && typeof row[0] === 'string' && /^criteri(on|a)$/i.test(row[0].trim())) return;
    const where = `weights ${typeof single === 'string' ? 'item' : 'row'} ${i + 1}`;
    const c = criterionOf(row[0], where);
    if (named.has(c)) throw badInput(`${where}: ${c} is weighted twice.`);
    named.add(c);
    out[c] = weightOf(row[1], `${where} (${c})`);
  });
  if (CRITERIA.every((c) => out[c] === 0))
    throw badInput('weights: every criterion weighs 0, so nothing would be ranked.');
  return out;
}

/** A range of one cell is its value (text weights typed in a cell); a larger range stays a range. */
function oneValueOrRange(input: unknown[]): unknown {
  const cells = input.flat(2);
  return cells.length <= 1 ? cells[0] : input;
}
