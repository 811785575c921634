/**
 * Records of the Investor and Venture Fund Data Service, as the spec names and types them.
 * The field tables are the single source of truth: the add-in's field lists, cell typing,
 * the reference service's generator and its OpenAPI document all read them.
 */

export const FIELD_TYPES = ['string', 'integer', 'float', 'boolean', 'datetime', 'json', 'list'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldSpec {
  readonly name: string;
  readonly type: FieldType;
}

/**
 * A field table written as words, one a field in the record's order: `name:type`. Words rather
 * than a call or an object a field: Apps Script compiles the whole bundle and runs its top level
 * in every execution, and the words take a third of the bytes of object literals. They become the
 * table in one JSON.parse of the words with separators swapped, not a loop over them: run once in
 * a fresh context, such a loop (or a regular expression, compiled anew there) cost every execution
 * 0.3 ms, the parse 0.05. The types are checked by the field-tables test (FIELD_TYPES).
 */
function specs(words: string): FieldSpec[] {
  return JSON.parse(`[{"name":"${words.split(':').join('","type":"').split(' ').join('"},{"name":"')}"}]`);
}

export const LP_FIELD_SPECS: readonly FieldSpec[] = specs(
  'id:string createdAt:datetime updatedAt:datetime slug:string fullName:string name:string ' +
    'surname:string foto:string currentInvestingPosition:string investorType:list activeStatus:string ' +
    'sweetSpot:string ticketSize:float expertise:list sectorsFocused:list investmentFocus:list ' +
    'targetInvestment:list totalPortfolio:integer headquarters:string region:list ' +
    'countriesOfInvestment:list categoryBadge:list tierBadge:string opinionBadge:string upvotes:string ' +
    'ethicalRating:float networkRating:float firm:string description:string portfolioCompanies:list ' +
    'linkedinProfile:string twitterProfile:string crunchbaseProfile:string instagramProfile:string ' +
    'email:string phoneNumber:string website:string address:string coInvestors:list mafias:list ' +
    'investmentThesis:string managerExperience:string hobbiesInterests:list howToApproach:string ' +
    'additionalTags:list feedbackEntries:list labels:list',
);

export const FUND_FIELD_SPECS: readonly FieldSpec[] = specs(
  'id:string createdAt:datetime updatedAt:datetime slug:string name:string website:string ' +
    'globalHQ:string region:list countriesOfInvestment:list stageOfInvestment:list active:string ' +
    'investmentThesis:string descriptionByAI:string email:string industries:list labels:list urls:list ' +
    'hrefs:list investorType:string firstChequeMinimum:float firstChequeMaximum:float linkedIn:string ' +
    'twitter:string crunchbase:string opinionsSummary:string npsScore:float contact1:string email1:string ' +
    'contact2:string email2:string fundNumber:string numberOfExits:string vintageYear:string ' +
    'netIrr:string investmentMultiple:string websiteScreenshotPath:string leadInvestor:string ' +
    'coinvest:string portfolioCompanies:list preferredContactMethod:string team:json keyPeople:list ' +
    'lastFundSize:string metadata:json needToProcessData:boolean isUnified:boolean ' +
    'failedToProcess:boolean processError:string allocation:string managementFee:string ' +
    'carriedInterest:string aum:string managersExperience:string followOnInvestment:string ' +
    'graduationRate:string writeOffRatio:string portfolioValue:string investorsLists:json',
);

/** What the firms and labels answers say of the partner, before their own list. */
const PARTNER_SUMMARY: readonly FieldSpec[] = specs(
  'id:string name:string fullName:string activeStatus:string slug:string foto:string',
);

export const LP_FIRMS_FIELD_SPECS: readonly FieldSpec[] = [...PARTNER_SUMMARY, ...specs('firm:list')];

export const LP_LABELS_FIELD_SPECS: readonly FieldSpec[] = [...PARTNER_SUMMARY, ...specs('labels:list')];

/** A record as the service sends it: field values are JSON values, any of which may be null. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type ServiceRecord = { [field: string]: JsonValue | undefined };

/** A JSON object: neither null nor a list. */
export const isObject = (v: unknown): v is ServiceRecord => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Sets `key` as an own property, even `__proto__` (an assignment would set the prototype). */
export function put(target: JsonValue[] | ServiceRecord, key: string | number, value: JsonValue): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else (target as Record<string | number, JsonValue>)[key] = value;
}

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
