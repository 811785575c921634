/** Shared fixtures of the LP_MATCH ranking tests: one fund that gives every criterion's fields, partners built from parts. */
import type { ServiceRecord } from '../../src/api/records';
import {
  type Criterion,
  DEFAULT_WEIGHTS,
  type FundProfile,
  fundProfile,
  scorePartner,
  type Verdict,
  type Weights,
} from '../../src/table/match';

/** A Micro VC fund of $80M: three industries, two stages, two regions, two countries. */
export const FUND: ServiceRecord = {
  id: 'vf_test',
  industries: ['Fintech', 'SaaS', 'AI'],
  stageOfInvestment: ['Seed', 'Series A'],
  region: ['Europe', 'North America'],
  countriesOfInvestment: ['Germany', 'France'],
  lastFundSize: '$80M',
  investorType: 'Micro VC',
};

export const fund = (over: ServiceRecord = {}): FundProfile => fundProfile({ ...FUND, ...over }, 'vf_test');

/** A partner who fits FUND on every criterion, in full. */
export const PERFECT: ServiceRecord = {
  id: 'lp_perfect',
  sectorsFocused: ['Fintech', 'SaaS', 'AI'],
  investmentFocus: ['Seed', 'Series A'],
  region: ['Europe', 'North America'],
  countriesOfInvestment: ['Germany', 'France'],
  headquarters: 'Berlin, Germany',
  ticketSize: 2_000_000,
  investorType: ['Angel'],
};

export const partner = (id: string, over: ServiceRecord = {}): ServiceRecord => ({
  activeStatus: 'ACTIVE',
  ...over,
  id,
});

/** One criterion's verdict for a partner against a fund (FUND by default). */
export function verdict(
  record: ServiceRecord,
  criterion: Criterion,
  f: FundProfile = fund(),
  weights: Weights = DEFAULT_WEIGHTS,
): Verdict {
  const found = scorePartner(record, f, weights).verdicts.find((v) => v.criterion === criterion);
  if (!found) throw new Error(`no verdict for ${criterion}`);
  return found;
}
