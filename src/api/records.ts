/**
 * Records of the Investor and Venture Fund Data Service, as the spec names and types them.
 * The field tables are the single source of truth: the add-in's field lists, cell typing,
 * the reference service's generator and its OpenAPI document all read them.
 */

export type FieldType = 'string' | 'integer' | 'float' | 'boolean' | 'datetime' | 'json' | 'list';

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
}

const f = (name: string, type: FieldType): FieldSpec => ({ name, type });

export const LP_FIELD_SPECS: readonly FieldSpec[] = [
  f('id', 'string'),
  f('createdAt', 'datetime'),
  f('updatedAt', 'datetime'),
  f('slug', 'string'),
  f('fullName', 'string'),
  f('name', 'string'),
  f('surname', 'string'),
  f('foto', 'string'),
  f('currentInvestingPosition', 'string'),
  f('investorType', 'list'),
  f('activeStatus', 'string'),
  f('sweetSpot', 'string'),
  f('ticketSize', 'float'),
  f('expertise', 'list'),
  f('sectorsFocused', 'list'),
  f('investmentFocus', 'list'),
  f('targetInvestment', 'list'),
  f('totalPortfolio', 'integer'),
  f('headquarters', 'string'),
  f('region', 'list'),
  f('countriesOfInvestment', 'list'),
  f('categoryBadge', 'list'),
  f('tierBadge', 'string'),
  f('opinionBadge', 'string'),
  f('upvotes', 'string'),
  f('ethicalRating', 'float'),
  f('networkRating', 'float'),
  f('firm', 'string'),
  f('description', 'string'),
  f('portfolioCompanies', 'list'),
  f('linkedinProfile', 'string'),
  f('twitterProfile', 'string'),
  f('crunchbaseProfile', 'string'),
  f('instagramProfile', 'string'),
  f('email', 'string'),
  f('phoneNumber', 'string'),
  f('website', 'string'),
  f('address', 'string'),
  f('coInvestors', 'list'),
  f('mafias', 'list'),
  f('investmentThesis', 'string'),
  f('managerExperience', 'string'),
  f('hobbiesInterests', 'list'),
  f('howToApproach', 'string'),
  f('additionalTags', 'list'),
  f('feedbackEntries', 'list'),
  f('labels', 'list'),
];

export const FUND_FIELD_SPECS: readonly FieldSpec[] = [
  f('id', 'string'),
  f('createdAt', 'datetime'),
  f('updatedAt', 'datetime'),
  f('slug', 'string'),
  f('name', 'string'),
  f('website', 'string'),
  f('globalHQ', 'string'),
  f('region', 'list'),
  f('countriesOfInvestment', 'list'),
  f('stageOfInvestment', 'list'),
  f('active', 'string'),
  f('investmentThesis', 'string'),
  f('descriptionByAI', 'string'),
  f('email', 'string'),
  f('industries', 'list'),
  f('labels', 'list'),
  f('urls', 'list'),
  f('hrefs', 'list'),
  f('investorType', 'string'),
  f('firstChequeMinimum', 'float'),
  f('firstChequeMaximum', 'float'),
  f('linkedIn', 'string'),
  f('twitter', 'string'),
  f('crunchbase', 'string'),
  f('opinionsSummary', 'string'),
  f('npsScore', 'float'),
  f('contact1', 'string'),
  f('email1', 'string'),
  f('contact2', 'string'),
  f('email2', 'string'),
  f('fundNumber', 'string'),
  f('numberOfExits', 'string'),
  f('vintageYear', 'string'),
  f('netIrr', 'string'),
  f('investmentMultiple', 'string'),
  f('websiteScreenshotPath', 'string'),
  f('leadInvestor', 'string'),
  f('coinvest', 'string'),
  f('portfolioCompanies', 'list'),
  f('preferredContactMethod', 'string'),
  f('team', 'json'),
  f('keyPeople', 'list'),
  f('lastFundSize', 'string'),
  f('metadata', 'json'),
  f('needToProcessData', 'boolean'),
  f('isUnified', 'boolean'),
  f('failedToProcess', 'boolean'),
  f('processError', 'string'),
  f('allocation', 'string'),
  f('managementFee', 'string'),
  f('carriedInterest', 'string'),
  f('aum', 'string'),
  f('managersExperience', 'string'),
  f('followOnInvestment', 'string'),
  f('graduationRate', 'string'),
  f('writeOffRatio', 'string'),
  f('portfolioValue', 'string'),
  f('investorsLists', 'json'),
];

/** What the firms and labels answers say of the partner, before their own list. */
const PARTNER_SUMMARY: readonly FieldSpec[] = [
  f('id', 'string'),
  f('name', 'string'),
  f('fullName', 'string'),
  f('activeStatus', 'string'),
  f('slug', 'string'),
  f('foto', 'string'),
];

export const LP_FIRMS_FIELD_SPECS: readonly FieldSpec[] = [...PARTNER_SUMMARY, f('firm', 'list')];

export const LP_LABELS_FIELD_SPECS: readonly FieldSpec[] = [...PARTNER_SUMMARY, f('labels', 'list')];

/** A record as the service sends it: field values are JSON values, any of which may be null. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type ServiceRecord = { [field: string]: JsonValue | undefined };

export interface Pagination {
  totalItems: number;
  totalPages: number;
  currentPage: number;
  pageSize: number;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/**
 * Why a listed record's `id` (or the id cell of its row) is no id the add-in can key it by, or
 * undefined when it is one: text with something in it besides spaces. The spec types ids as text, and a sheet cannot tell
 * `1` from `"1"` once written, so a number is no id either. One rule for every list the add-in
 * keys by id: the page reader, the shared snapshot and the import skip (and count) such records.
 */
export function idProblem(id: unknown): 'without an id' | 'whose id is not text' | undefined {
  if (id === undefined || id === null || (typeof id === 'string' && !id.trim())) return 'without an id';
  return typeof id === 'string' ? undefined : 'whose id is not text';
}

/** The id a listed record is keyed by, or undefined when it has no usable one (see idProblem). */
export function recordId(record: ServiceRecord): string | undefined {
  return idProblem(record.id) === undefined ? (record.id as string) : undefined;
}

/**
 * The one rule for "each usable id once", used by every list the add-in shows or writes (a list
 * formula, the snapshot, the import's table): items in list order, a usable id's first listing
 * only (a later one is the same partner listed again, whatever it holds); items without a usable
 * id all kept, for their caller to skip and count. Records are keyed by recordId; rows by `idOf`.
 */
export function firstOfEachId(records: readonly ServiceRecord[]): ServiceRecord[];
export function firstOfEachId<T>(items: readonly T[], idOf: (item: T) => string | undefined): T[];
export function firstOfEachId<T>(items: readonly T[], idOf?: (item: T) => string | undefined): T[] {
  const key = idOf ?? ((item: T) => recordId(item as ServiceRecord));
  const seen = new Set<string>();
  return items.filter((item) => {
    const id = key(item);
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

export const LP_FIELDS: readonly string[] = LP_FIELD_SPECS.map((s) => s.name);
export const FUND_FIELDS: readonly string[] = FUND_FIELD_SPECS.map((s) => s.name);
