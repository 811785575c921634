/**
 * Seeded, realistic records for the reference service, made on demand from (seed, index) so that
 * 200,000 partners cost no memory until asked for. A few low indices are hard cases on purpose:
 * unicode, a description over 50,000 characters, empty lists, nulls, text that starts like a
 * formula, markup, and ids that need URL-encoding; the active list keeps them out of its first
 * rows (an analyst's first screen is ordinary data).
 */
import { faker } from '@faker-js/faker';
import type { JsonValue, ServiceRecord } from '../../src/api/records';
import { hash32 } from './rng';

const INVESTOR_TYPES = [
  'Angel',
  'Family Office',
  'Fund of Funds',
  'Endowment',
  'Pension Fund',
  'Corporate',
  'Sovereign Wealth Fund',
  'HNWI',
];
const SECTORS = [
  'Fintech',
  'Healthtech',
  'Climate',
  'AI',
  'SaaS',
  'Marketplaces',
  'Deep Tech',
  'Consumer',
  'Biotech',
  'Cybersecurity',
  'Mobility',
  'Edtech',
];
const STAGES = ['Pre-seed', 'Seed', 'Series A', 'Series B', 'Growth'];
const REGIONS = ['Europe', 'North America', 'LATAM', 'APAC', 'MENA', 'Africa'];
const TIERS = ['Tier 1', 'Tier 2', 'Tier 3'];
/**
 * Countries of investment and of headquarters, four for each region: few enough that a partner's
 * and a fund's countries meet (LP_MATCH compares them). Drawn with one arrayElement, as
 * faker.location.country() is, so every other generated value stays as it was.
 */
const COUNTRIES = [
  'Germany',
  'France',
  'United Kingdom',
  'Sweden',
  'United States',
  'Canada',
  'Mexico',
  'Bermuda',
  'Brazil',
  'Colombia',
  'Chile',
  'Argentina',
  'Singapore',
  'India',
  'Japan',
  'Australia',
  'United Arab Emirates',
  'Israel',
  'Saudi Arabia',
  'Egypt',
  'Nigeria',
  'Kenya',
  'South Africa',
  'Ghana',
];
const country = (): string => faker.helpers.arrayElement(COUNTRIES);

/** Special ids: hard cases for URL encoding (each is a real, fetchable record). */
export const SPECIAL_PARTNER_IDS: Readonly<Record<number, string>> = { 1: 'lp/ä 1#&apiKey=x?y', 7: 'lp..%2F7+plus' };
export const SPECIAL_FUND_IDS: Readonly<Record<number, string>> = { 1: 'vf/ü 1#&x=y?' };

export function partnerId(i: number): string {
  return SPECIAL_PARTNER_IDS[i] ?? `lp_${i.toString(36).padStart(5, '0')}`;
}

export function fundId(i: number): string {
  return SPECIAL_FUND_IDS[i] ?? `vf_${i.toString(36).padStart(4, '0')}`;
}

export function partnerIndex(id: string): number | undefined {
  for (const [i, special] of Object.entries(SPECIAL_PARTNER_IDS)) if (special === id) return Number(i);
  const m = /^lp_([0-9a-z]{5,})$/.exec(id);
  return m && !SPECIAL_PARTNER_IDS[parseInt(m[1], 36)] ? parseInt(m[1], 36) : undefined;
}

export function fundIndex(id: string): number | undefined {
  for (const [i, special] of Object.entries(SPECIAL_FUND_IDS)) if (special === id) return Number(i);
  const m = /^vf_([0-9a-z]{4,})$/.exec(id);
  return m && !SPECIAL_FUND_IDS[parseInt(m[1], 36)] ? parseInt(m[1], 36) : undefined;
}

/** Partners 0 to 7 are the hard cases (always active); the active list shows them after this many ordinary partners. */
export const HARD_CASE_PARTNERS = 8;
export const HARD_CASES_AFTER = 50;

/** About 15 % of partners are inactive, decided by the seed. */
export function partnerActive(seed: number, i: number): boolean {
  return i < HARD_CASE_PARTNERS || hash32(seed, 'active', i) % 100 >= 15;
}

const pick = <T>(items: readonly T[], min: number, max: number): T[] =>
  faker.helpers.arrayElements([...items], { min, max });
const maybe = <T>(value: T, nullRate = 0.05): T | null => (faker.number.float() < nullRate ? null : value);

function stamps(): { createdAt: string; updatedAt: string } {
  const created = faker.date.between({ from: '2019-01-01T00:00:00Z', to: '2025-06-30T00:00:00Z' });
  const updated = faker.date.between({ from: created, to: '2026-10-31T00:00:00Z' });
  return { createdAt: created.toISOString(), updatedAt: updated.toISOString() };
}

export function makePartner(seed: number, i: number): ServiceRecord {
  faker.seed(hash32(seed, 'lp', i));
  const name = faker.person.firstName();
  const surname = faker.person.lastName();
  const fullName = `${name} ${surname}`;
  const firm = faker.company.name();
  const slug = faker.helpers.slugify(`${fullName}-${i}`).toLowerCase();
  const handle = faker.helpers.slugify(fullName).toLowerCase();
  const r: ServiceRecord = {
    id: partnerId(i),
    ...stamps(),
    slug,
    fullName,
    name,
    surname,
    foto: `https://images.example.com/lp/${slug}.jpg`,
    currentInvestingPosition: faker.helpers.arrayElement([
      'Managing Partner',
      'Principal',
      'Investment Director',
      'CIO',
      'Partner',
    ]),
    investorType: pick(INVESTOR_TYPES, 1, 2),
    activeStatus: partnerActive(seed, i) ? 'ACTIVE' : 'INACTIVE',
    sweetSpot: faker.helpers.arrayElement(['$250K–$1M', '$1M–$5M', '$5M–$20M', '$20M+']),
    ticketSize: faker.number.int({ min: 50, max: 50000 }) * 1000,
    expertise: pick(SECTORS, 1, 3),
    sectorsFocused: pick(SECTORS, 1, 4),
    investmentFocus: pick(STAGES, 1, 3),
    targetInvestment: pick(['Venture funds', 'Direct deals', 'Co-investments', 'Secondaries'], 1, 2),
    totalPortfolio: faker.number.int({ min: 0, max: 250 }),
    headquarters: `${faker.location.city()}, ${country()}`,
    region: pick(REGIONS, 1, 2),
    countriesOfInvestment: Array.from({ length: faker.number.int({ min: 1, max: 4 }) }, country),
    categoryBadge: pick(['Top Investor', 'Rising Star', 'Impact', 'Emerging Manager Friendly'], 0, 2),
    tierBadge: faker.helpers.arrayElement(TIERS),
    opinionBadge: faker.helpers.arrayElement(['Positive', 'Neutral', 'Mixed']),
    upvotes: String(faker.number.int({ min: 0, max: 900 })),
    ethicalRating: faker.number.float({ min: 1, max: 5, fractionDigits: 1 }),
    networkRating: faker.number.float({ min: 1, max: 5, fractionDigits: 1 }),
    firm,
    description: faker.lorem.paragraph(),
    portfolioCompanies: Array.from({ length: faker.number.int({ min: 0, max: 5 }) }, () => faker.company.name()),
    linkedinProfile: `https://www.linkedin.com/in/${handle}`,
    twitterProfile: maybe(`https://x.com/${handle}`, 0.3),
    crunchbaseProfile: maybe(`https://www.crunchbase.com/person/${handle}`, 0.2),
    instagramProfile: maybe(`https://instagram.com/${handle}`, 0.6),
    email: faker.internet.email({ firstName: name, lastName: surname }).toLowerCase(),
    phoneNumber: maybe(faker.phone.number({ style: 'international' }), 0.2),
    website: faker.internet.url(),
    address: maybe(faker.location.streetAddress({ useFullAddress: true })),
    coInvestors: Array.from({ length: faker.number.int({ min: 0, max: 3 }) }, () => faker.person.fullName()),
    mafias: pick(['PayPal Mafia', 'Google Alumni', 'Stripe Alumni', 'Rocket Internet Alumni'], 0, 1),
    investmentThesis: faker.lorem.sentences(2),
    managerExperience: `${faker.number.int({ min: 1, max: 30 })} years`,
    hobbiesInterests: pick(['Sailing', 'Chess', 'Marathons', 'Art', 'Wine', 'Climbing'], 0, 2),
    howToApproach: faker.helpers.arrayElement([
      'Warm intro only',
      'Cold email welcome',
      'Via LinkedIn',
      'Through portfolio founders',
    ]),
    additionalTags: pick(['ESG', 'Diversity', 'Deep Tech', 'B2B', 'B2C'], 0, 3),
    feedbackEntries: pick(['Responsive', 'Slow to answer', 'Helpful on follow-ons', 'Founder friendly'], 0, 2),
    labels: pick(['Warm', 'Priority', 'Follow up', 'Met at conference', 'Q3 pipeline'], 0, 3),
  };
  return applyPartnerHardCase(r, i);
}

function applyPartnerHardCase(r: ServiceRecord, i: number): ServiceRecord {
  switch (i) {
    case 0:
      return {
        ...r,
        name: 'Zoë',
        surname: 'Ångström-Łukasiewicz 张伟',
        fullName: 'Zoë Ångström-Łukasiewicz 张伟',
        firm: 'Société Générale — Ventures 🚀',
        headquarters: 'Zürich, Schweiz',
      };
    case 2:
      return { ...r, description: `${'Long description. '.repeat(3500)}END` };
    case 3: {
      const empty: ServiceRecord = { ...r };
      for (const [k, v] of Object.entries(r)) if (Array.isArray(v)) empty[k] = [];
      return empty;
    }
    case 4: {
      const nulls: ServiceRecord = { ...r };
      for (const k of [
        'phoneNumber',
        'twitterProfile',
        'address',
        'ticketSize',
        'totalPortfolio',
        'createdAt',
        'ethicalRating',
        'expertise',
        'description',
      ])
        nulls[k] = null;
      return nulls;
    }
    case 5:
      return {
        ...r,
        fullName: '=HYPERLINK("http://evil.example","click")',
        firm: '+44 20 7946 0000',
        description: '-1+2 starts with a minus',
        email: '@handle',
        sweetSpot: "'quoted",
      };
    case 6:
      return { ...r, fullName: '<script>alert("xss")</script>', firm: '<img src=x onerror=alert(1)>' };
    default:
      return r;
  }
}

export function makeFund(seed: number, i: number): ServiceRecord {
  faker.seed(hash32(seed, 'vf', i));
  const name = `${faker.company.name()} ${faker.helpers.arrayElement(['Ventures', 'Capital', 'Partners', 'VC'])}`;
  const slug = faker.helpers.slugify(`${name}-${i}`).toLowerCase();
  const domain = `${faker.helpers.slugify(name).toLowerCase()}.example.com`;
  const size = faker.number.int({ min: 5, max: 900 });
  const team: JsonValue = Array.from({ length: faker.number.int({ min: 1, max: 4 }) }, () => ({
    name: faker.person.fullName(),
    role: faker.helpers.arrayElement(['GP', 'Partner', 'Principal', 'Analyst']),
  }));
  const r: ServiceRecord = {
    id: fundId(i),
    ...stamps(),
    slug,
    name,
    website: `https://${domain}`,
    globalHQ: `${faker.location.city()}, ${faker.location.country()}`,
    region: pick(REGIONS, 1, 3),
    countriesOfInvestment: Array.from({ length: faker.number.int({ min: 1, max: 5 }) }, country),
    stageOfInvestment: pick(STAGES, 1, 3),
    active: 'ACTIVE',
    investmentThesis: faker.lorem.sentences(2),
    descriptionByAI: faker.lorem.paragraph(),
    email: `hello@${domain}`,
    industries: pick(SECTORS, 1, 4),
    labels: pick(['Top quartile', 'Emerging', 'Impact', 'Follow'], 0, 2),
    urls: [`https://${domain}`],
    hrefs: [`https://${domain}/team`, `https://${domain}/portfolio`],
    investorType: faker.helpers.arrayElement(['VC', 'CVC', 'Micro VC', 'Growth Equity']),
    firstChequeMinimum: faker.number.int({ min: 1, max: 20 }) * 50000,
    firstChequeMaximum: faker.number.int({ min: 21, max: 200 }) * 50000,
    linkedIn: `https://www.linkedin.com/company/${slug}`,
    twitter: maybe(`https://x.com/${slug}`, 0.3),
    crunchbase: `https://www.crunchbase.com/organization/${slug}`,
    opinionsSummary: faker.lorem.sentence(),
    npsScore: faker.number.float({ min: -20, max: 90, fractionDigits: 1 }),
    contact1: faker.person.fullName(),
    email1: faker.internet.email().toLowerCase(),
    contact2: maybe(faker.person.fullName(), 0.4),
    email2: maybe(faker.internet.email().toLowerCase(), 0.4),
    fundNumber: `Fund ${faker.helpers.arrayElement(['I', 'II', 'III', 'IV', 'V'])}`,
    numberOfExits: String(faker.number.int({ min: 0, max: 40 })),
    vintageYear: String(faker.number.int({ min: 2005, max: 2025 })),
    netIrr: `${faker.number.float({ min: -5, max: 45, fractionDigits: 1 })}%`,
    investmentMultiple: `${faker.number.float({ min: 0.8, max: 4.5, fractionDigits: 2 })}x`,
    websiteScreenshotPath: `/screenshots/${slug}.png`,
    leadInvestor: faker.helpers.arrayElement(['Yes', 'No', 'Sometimes']),
    coinvest: faker.helpers.arrayElement(['Yes', 'No']),
    portfolioCompanies: Array.from({ length: faker.number.int({ min: 0, max: 8 }) }, () => faker.company.name()),
    preferredContactMethod: faker.helpers.arrayElement(['Email', 'LinkedIn', 'Intro']),
    team,
    keyPeople: Array.isArray(team) ? team.map((t) => (t as { name: string }).name) : [],
    lastFundSize: `$${size}M`,
    metadata: { source: 'reference', score: faker.number.int({ min: 0, max: 100 }), tags: pick(['a', 'b', 'c'], 0, 2) },
    needToProcessData: faker.datatype.boolean(0.1),
    isUnified: faker.datatype.boolean(0.7),
    failedToProcess: false,
    processError: null,
    allocation: `${faker.number.int({ min: 5, max: 60 })}% reserves`,
    managementFee: `${faker.number.float({ min: 1.5, max: 2.5, fractionDigits: 1 })}%`,
    carriedInterest: `${faker.helpers.arrayElement([15, 20, 25, 30])}%`,
    aum: `$${size * faker.number.int({ min: 1, max: 5 })}M`,
    managersExperience: `${faker.number.int({ min: 2, max: 30 })} years`,
    followOnInvestment: faker.helpers.arrayElement(['Yes', 'No', 'Pro rata']),
    graduationRate: `${faker.number.int({ min: 10, max: 80 })}%`,
    writeOffRatio: `${faker.number.int({ min: 0, max: 50 })}%`,
    portfolioValue: `$${size * 2}M`,
    investorsLists: Array.from({ length: faker.number.int({ min: 0, max: 2 }) }, () => ({
      listId: faker.string.alphanumeric(8),
      name: faker.lorem.words(2),
    })),
  };
  if (i === 0) return { ...r, name: '=SUM(1,2) Ventures', lastFundSize: '-$5M (restated)', team: [], metadata: null };
  return r;
}

export function makeIndustries(seed: number, i: number): ServiceRecord[] {
  faker.seed(hash32(seed, 'vfi', i));
  const count = i === 2 ? 0 : faker.number.int({ min: 1, max: 35 });
  return Array.from({ length: count }, () => ({ industries: pick(SECTORS, 1, 3) }));
}
