/**
 * The records the reference service serves: generated from a seed (lazily, with a small LRU of
 * built records) or loaded from a user's JSON file (validated, with errors that name the record
 * and field). Tests can change it while it runs (deactivate partners, reorder the active list),
 * as a real service's data changes between two imports.
 */
import { readFileSync } from 'node:fs';
import { FUND_FIELD_SPECS, type FieldSpec, LP_FIELD_SPECS, type ServiceRecord } from '../../src/api/records';
import {
  fundId,
  fundIndex,
  HARD_CASE_PARTNERS,
  HARD_CASES_AFTER,
  makeFund,
  makeIndustries,
  makePartner,
  partnerActive,
  partnerId,
  partnerIndex,
} from './generate';
import { hash32 } from './rng';

export interface Dataset {
  readonly partnerCount: number;
  readonly fundCount: number;
  activePartnerIds(): readonly string[];
  partner(id: string): ServiceRecord | undefined;
  fund(id: string): ServiceRecord | undefined;
  industries(fundId: string): ServiceRecord[] | undefined;
}

export interface Mutation {
  deactivate?: string[];
  /** Lists deactivated partners again, at the end of the list (a partner joining). */
  reactivate?: string[];
  reorder?: 'reverse' | 'shuffle';
  touch?: string[];
}

class Lru<V> {
  private readonly map = new Map<string, V>();
  constructor(public size: number) {}
  get(key: string, make: () => V): V {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = make();
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
    return value;
  }
}

/** Overlay shared by both kinds of dataset: deactivated ids, order changes, touched records. */
abstract class Mutable implements Dataset {
  abstract readonly partnerCount: number;
  abstract readonly fundCount: number;
  protected readonly inactive = new Set<string>();
  protected readonly touched = new Map<string, number>();
  private order: readonly string[] | undefined;
  protected abstract baseActiveIds(): readonly string[];
  protected abstract basePartner(id: string): ServiceRecord | undefined;
  abstract fund(id: string): ServiceRecord | undefined;
  abstract industries(fundId: string): ServiceRecord[] | undefined;

  activePartnerIds(): readonly string[] {
    if (!this.order) this.order = this.baseActiveIds().filter((id) => !this.inactive.has(id));
    return this.order;
  }

  partner(id: string): ServiceRecord | undefined {
    const base = this.basePartner(id);
    if (!base) return undefined;
    const touches = this.touched.get(id);
    const r = this.inactive.has(id) ? { ...base, activeStatus: 'INACTIVE' } : base;
    return touches
      ? {
          ...r,
          updatedAt: new Date(Date.UTC(2026, 10, 1) + touches * 1000).toISOString(),
          upvotes: String(Number(r.upvotes ?? 0) + touches),
        }
      : r;
  }

  mutate(m: Mutation): void {
    for (const id of m.deactivate ?? []) this.inactive.add(id);
    for (const id of m.reactivate ?? []) {
      if (this.inactive.delete(id) && this.order && !this.order.includes(id)) this.order = [...this.order, id];
    }
    for (const id of m.touch ?? []) this.touched.set(id, (this.touched.get(id) ?? 0) + 1);
    const current = (this.order ?? this.baseActiveIds()).filter((id) => !this.inactive.has(id));
    if (m.reorder === 'reverse') this.order = [...current].reverse();
    else if (m.reorder === 'shuffle')
      this.order = [...current].sort((a, b) => hash32('shuffle', a) - hash32('shuffle', b));
    else this.order = this.order ? this.order.filter((id) => !this.inactive.has(id)) : current;
  }
}

export class GeneratedDataset extends Mutable {
  private readonly lp = new Lru<ServiceRecord>(20000);
  private readonly vf = new Lru<ServiceRecord>(5000);
  private active: string[] | undefined;

  constructor(
    readonly seed: number,
    readonly partnerCount: number,
    readonly fundCount: number,
  ) {
    super();
  }

  /** Builds every partner record now and keeps them all (benchmarks: no generation cost per request). */
  preload(): void {
    this.lp.size = Math.max(this.lp.size, this.partnerCount);
    for (let i = 0; i < this.partnerCount; i++) this.basePartner(partnerId(i));
  }

  /** In index order, except the hard cases, which follow the first HARD_CASES_AFTER ordinary partners. */
  protected baseActiveIds(): readonly string[] {
    if (!this.active) {
      const hard: string[] = [];
      const plain: string[] = [];
      for (let i = 0; i < this.partnerCount; i++)
        if (partnerActive(this.seed, i)) (i < HARD_CASE_PARTNERS ? hard : plain).push(partnerId(i));
      this.active = [...plain.slice(0, HARD_CASES_AFTER), ...hard, ...plain.slice(HARD_CASES_AFTER)];
    }
    return this.active;
  }

  protected basePartner(id: string): ServiceRecord | undefined {
    const i = partnerIndex(id);
    if (i === undefined || i >= this.partnerCount) return undefined;
    return this.lp.get(id, () => makePartner(this.seed, i));
  }

  fund(id: string): ServiceRecord | undefined {
    const i = fundIndex(id);
    if (i === undefined || i >= this.fundCount) return undefined;
    return this.vf.get(id, () => makeFund(this.seed, i));
  }

  industries(id: string): ServiceRecord[] | undefined {
    const i = fundIndex(id);
    return i === undefined || i >= this.fundCount ? undefined : makeIndustries(this.seed, i);
  }
}

export class FileDataset extends Mutable {
  readonly partnerCount: number;
  readonly fundCount: number;
  private readonly partners = new Map<string, ServiceRecord>();
  private readonly funds = new Map<string, ServiceRecord>();
  private readonly industryItems = new Map<string, ServiceRecord[]>();

  constructor(data: unknown, source: string) {
    super();
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new Error(`${source}: expected an object with "limitedPartners" and "ventureFunds" lists.`);
    const d = data as Record<string, unknown>;
    loadRecords(d.limitedPartners, 'limitedPartners', LP_FIELD_SPECS, this.partners, source);
    loadRecords(d.ventureFunds, 'ventureFunds', FUND_FIELD_SPECS, this.funds, source);
    for (const [id, fund] of this.funds) {
      const list = Array.isArray(fund.industries) ? fund.industries : [];
      this.industryItems.set(
        id,
        list.map((name) => ({ industries: [name] })),
      );
    }
    this.partnerCount = this.partners.size;
    this.fundCount = this.funds.size;
  }

  protected baseActiveIds(): readonly string[] {
    return [...this.partners.values()]
      .filter((p) => String(p.activeStatus ?? '').toUpperCase() === 'ACTIVE')
      .map((p) => p.id as string);
  }

  protected basePartner(id: string): ServiceRecord | undefined {
    return this.partners.get(id);
  }

  fund(id: string): ServiceRecord | undefined {
    return this.funds.get(id);
  }

  industries(id: string): ServiceRecord[] | undefined {
    return this.industryItems.get(id);
  }
}

function typeOk(value: unknown, type: FieldSpec['type']): boolean {
  if (value === null) return true;
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    case 'integer':
      return Number.isInteger(value);
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    default:
      return true;
  }
}

function loadRecords(
  list: unknown,
  name: string,
  specs: readonly FieldSpec[],
  into: Map<string, ServiceRecord>,
  source: string,
): void {
  if (list === undefined) return;
  if (!Array.isArray(list)) throw new Error(`${source}: "${name}" must be a list of records.`);
  const known = new Map(specs.map((s) => [s.name, s]));
  list.forEach((record, i) => {
    const where = `${source}: ${name}[${i}]`;
    if (!record || typeof record !== 'object' || Array.isArray(record)) throw new Error(`${where} is not an object.`);
    const r = record as ServiceRecord;
    if (typeof r.id !== 'string' || r.id === '') throw new Error(`${where}: field "id" must be a non-empty string.`);
    if (into.has(r.id)) throw new Error(`${where} (id "${r.id}"): the id is used twice.`);
    for (const [field, value] of Object.entries(r)) {
      const spec = known.get(field);
      if (!spec) throw new Error(`${where} (id "${r.id}"): unknown field "${field}".`);
      if (!typeOk(value, spec.type))
        throw new Error(
          `${where} (id "${r.id}"): field "${field}" must be ${spec.type}, got ${JSON.stringify(value)?.slice(0, 40)}.`,
        );
    }
    into.set(r.id, r);
  });
}

export function loadDatasetFile(path: string): FileDataset {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: cannot read (${(e as Error).message}).`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message}).`);
  }
  return new FileDataset(data, path);
}

export { fundId, partnerId };
