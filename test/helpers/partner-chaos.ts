/**
 * Seeded random scenarios for the partner lookup (src/api/partners.ts), over the shared world of
 * test/helpers/partner-world.ts. A scenario draws a service (active list, inactive partners, a page
 * size), a sheet (columns of ids with inactive and unknown ids, duplicates and blanks, each column
 * filled down with single-id formulas), and a run of executions: cells of a column (with their
 * neighbours) and ranges. At each moment the world reports (a list page or an id asked for, a
 * cache write, a waiting cell's poll) the scenario may act: run another execution's lookup there
 * (as Sheets runs cells at once), evict cache items, leave a claim no execution will let go,
 * change the service's list (edit, add, remove, deactivate), take the service down for a while,
 * or let time pass. Requests fail at random (429 with or without Retry-After, 500, a timeout, a
 * broken body). Every draw comes from the seed.
 *
 * Each answer of each execution is checked against what the service held over time: an answer
 * is a record of the id asked for, that the service held at some moment it could still be
 * fresh (or, marked stale, at the moment it says); "not found" only for an id the service did
 * not have at such a moment; a blank is an error. No exception escapes; no execution asks for an
 * id again once answered, or for a list page more than twice (one read and one re-read, which asks
 * for page 1 again); a read the list held still during gives the execution the list (it asks for
 * no listed partner by id), and a read the list moved under is done again when time allows; an
 * execution ends by its deadline unless other executions' time carried it past, and leaves no
 * claim behind.
 */
import { mulberry32 as seeded } from '../../dev/service/rng';
import { ServiceError } from '../../src/api/errors';
import { CLAIM_MS, type Neighbours } from '../../src/api/lookup-cache';
import type { ServiceRecord } from '../../src/api/records';
import type { HttpResponse } from '../../src/api/transport';
import { json } from './fakes';
import { type Execution, partnerWorld, TTL_MS } from './partner-world';

/** Time between reading a copy and stamping it in the cache (an execution, other executions run inside it). */
const SLACK_MS = 5 * 60_000;

interface PartnerRecord {
  id: string;
  fullName: string;
  activeStatus: string;
  v: number;
}

/** One version of a partner as the service held it, from `from` until `to` (Infinity: still held). */
interface Version {
  text: string;
  from: number;
  to: number;
}

const text = (r: { id?: unknown; fullName?: unknown; activeStatus?: unknown; v?: unknown }) =>
  `${r.id}|${r.fullName}|${r.activeStatus}|${r.v}`;

/** The data service as it changes over time, with every partner's versions. */
class Service {
  readonly records = new Map<string, PartnerRecord>();
  active: string[] = [];
  /** Bumped whenever the active list's members or order change (an edit of a record does not). */
  listVersion = 0;
  /** The active list's members at each version a page was served at, and the list itself. */
  readonly membersAt = new Map<number, Set<string>>();
  private readonly lists = new Map<number, string[]>();
  readonly history = new Map<string, Version[]>();
  /** Moments at which an id was not held (absent, or deleted), as intervals. */
  readonly absent = new Map<string, Array<{ from: number; to: number }>>();
  private next = 0;

  constructor(private readonly now: () => number) {}

  newId(prefix: string): string {
    return `${prefix}${String(this.next++).padStart(4, '0')}`;
  }

  put(id: string, activeStatus: string): void {
    const before = this.records.get(id);
    const r: PartnerRecord = { id, fullName: `Name ${id}`, activeStatus, v: (before?.v ?? 0) + 1 };
    this.close(id);
    if (!before) {
      const gaps = this.absent.get(id);
      const open = gaps?.[gaps.length - 1];
      if (open && open.to === Infinity) open.to = this.now();
    }
    this.records.set(id, r);
    if (!this.history.has(id)) this.history.set(id, []);
    this.history.get(id)?.push({ text: text(r), from: this.now(), to: Infinity });
  }

  remove(id: string): void {
    this.close(id);
    this.records.delete(id);
    this.setActive(this.active.filter((x) => x !== id));
    if (!this.absent.has(id)) this.absent.set(id, []);
    this.absent.get(id)?.push({ from: this.now(), to: Infinity });
  }

  private close(id: string): void {
    const versions = this.history.get(id);
    const last = versions?.[versions.length - 1];
    if (last && last.to === Infinity) last.to = this.now();
  }

  listAt(version: number): string[] {
    return this.lists.get(version) ?? [];
  }

  setActive(ids: string[]): void {
    this.active = ids;
    this.listVersion++;
  }

  page(page: number, cap: number): HttpResponse {
    if (!this.membersAt.has(this.listVersion)) {
      this.membersAt.set(this.listVersion, new Set(this.active));
      this.lists.set(this.listVersion, this.active);
    }
    const total = this.active.length;
    const data = this.active.slice((page - 1) * cap, page * cap).map((id) => this.records.get(id));
    return json(200, {
      data,
      pagination: { totalItems: total, totalPages: Math.ceil(total / cap), currentPage: page, pageSize: cap },
    });
  }

  byId(id: string): HttpResponse {
    const r = this.records.get(id);
    return r ? json(200, { data: [r] }) : json(404, { error: 'Limited partner not found' });
  }

  /** Whether the service held no `id` at some moment of [from, to]. */
  wasAbsent(id: string, from: number, to: number): boolean {
    if (!this.history.has(id)) return true;
    const first = (this.history.get(id) as Version[])[0].from;
    if (first > from) return true;
    return (this.absent.get(id) ?? []).some((g) => g.from <= to && g.to >= from);
  }
}

/** An execution running now: the requests it made, and until when other executions' time carried it. */
interface Running {
  /** The executions it runs inside, then its own token, and what it looks up. */
  name: string;
  token: string;
  deadline: number;
  /** Per id: whether an answer (a record or "not found") came. */
  answered: Set<string>;
  pages: Map<number, number>;
  /** Its requests in order: a list page (answered or not, at which list version) or an id. */
  requests: Array<{ page: number; answered: boolean; version: number; at: number } | { id: string }>;
  /** The latest moment other executions (or the world) moved the clock while this one waited on them. */
  foreignUntil: number;
}

export interface ScenarioResult {
  violations: string[];
  executions: number;
  answers: { ok: number; stale: number; error: number };
  /** List pages and ids asked for, over every execution. */
  pages: number;
  ids: number;
}

interface Cell {
  column: number;
  row: number;
}

/** Runs scenario `seed` and returns the promises it broke (empty when it held). */
export function runScenario(seed: number): ScenarioResult {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const chance = (p: number) => rnd() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));

  const pageCap = pick([20, 50, 100]);
  const world = partnerWorld({ total: 0, pageCap });
  const { clock, hooks, memo, store } = world;
  const service = new Service(() => clock.now());
  const startSize = pick([0, 8, 45, 120, 260, 260, 700]);
  for (let i = 0; i < startSize; i++) {
    const id = service.newId('lp_');
    service.put(id, 'ACTIVE');
    service.setActive([...service.active, id]);
  }
  const inactive = Array.from({ length: int(2, 12) }, () => service.newId('in_'));
  for (const id of inactive) service.put(id, 'INACTIVE');
  const unknown = ['zz_0001', 'zz_0002', 'nobody', '__proto__', 'constructor', 'a&b=c', 'x/../y', 'lp_9999'];

  // The sheet: columns of ids, each filled down with =LP_GET(A<row>, …).
  const rowId = (before: readonly string[]): string => {
    const r = rnd();
    if (r < 0.62 && service.active.length) return pick(service.active);
    if (r < 0.72) return pick(inactive);
    if (r < 0.8) return pick(unknown);
    if (r < 0.88) return pick(['', '  ']);
    return before.length ? pick(before) : pick(unknown);
  };
  const columns: string[][] = Array.from({ length: int(1, 3) }, () => {
    const ids: string[] = [];
    const rows = pick([5, 20, 40, 80, 150, 220]);
    for (let i = 0; i < rows; i++) ids.push(rowId(ids));
    return ids;
  });
  const blank = (id: string) => id.trim() === '';
  const neighboursOf = ({ column, row }: Cell): Neighbours => {
    const ids = columns[column];
    const block = Math.floor(row / 100);
    return {
      ids: ids.slice(block * 100, block * 100 + 100).filter((x) => !blank(x)),
      column: ids.filter((x) => !blank(x)),
      group: `S:${column}:${block}`,
    };
  };

  // Failures: a rate per request, and outages.
  const failRate = pick([0, 0, 0.04, 0.15, 0.4]);
  const chaos = pick([0.02, 0.06, 0.15]);
  const liveList = pick([0, 0, 0.05, 0.25]);
  let downUntil = -Infinity;
  const violations: string[] = [];
  const result: ScenarioResult = {
    violations,
    executions: 0,
    answers: { ok: 0, stale: 0, error: 0 },
    pages: 0,
    ids: 0,
  };
  const stack: Running[] = [];
  let budget = int(4, 14);
  let serial = 0;
  let ghosts = 0;
  /** Claims the cache lost or a dead execution wrote over: an execution that saw one may leave the list to another. */
  let claimsLost = 0;

  /** Time that passes outside the running executions: each of them was carried to now. */
  const foreign = (during: () => void) => {
    during();
    for (const r of stack) r.foreignUntil = Math.max(r.foreignUntil, clock.now());
  };

  /** Time a request takes (never past the deadline of the execution that sent it). */
  const latency = pick([0, 0, 40, 400]);
  const take = (ms: number) => {
    const me = stack[stack.length - 1];
    clock.t += Math.max(0, Math.min(ms, (me?.deadline ?? clock.t) - clock.t));
  };

  const failure = (): HttpResponse | Error | undefined => {
    take(latency ? int(0, latency) : 0);
    const down = clock.now() < downUntil;
    if (!down && !chance(failRate)) return undefined;
    const r = rnd();
    if (r < 0.3) return json(429, { error: 'slow down' }, chance(0.5) ? { 'retry-after': String(int(1, 30)) } : {});
    if (r < 0.6) return json(pick([500, 502, 503]), { error: 'down' });
    if (r < 0.85) {
      // A hung request.
      take(int(1_000, 15_000));
      return new Error('Request timed out');
    }
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data": [' };
  };

  const changeService = () => {
    const r = rnd();
    if (r < 0.35 && service.records.size) {
      const id = pick([...service.records.keys()]);
      service.put(id, (service.records.get(id) as PartnerRecord).activeStatus);
    } else if (r < 0.55) {
      const id = service.newId('lp_');
      service.put(id, 'ACTIVE');
      const at = chance(0.5) ? service.active.length : int(0, service.active.length);
      service.setActive([...service.active.slice(0, at), id, ...service.active.slice(at)]);
    } else if (r < 0.7 && service.active.length) {
      const id = pick(service.active);
      service.setActive(service.active.filter((x) => x !== id));
      service.put(id, 'INACTIVE');
    } else if (r < 0.8 && service.active.length) {
      service.remove(pick(service.active));
    } else if (r < 0.9) {
      const id = pick(inactive);
      if (service.records.has(id) && !service.active.includes(id)) {
        service.put(id, 'ACTIVE');
        service.setActive([...service.active, id]);
      }
    } else if (service.records.size) {
      // A whole batch of edits at once.
      for (let i = 0; i < 5; i++) service.put(pick([...service.records.keys()]), 'ACTIVE');
    }
  };

  const evict = () => {
    const keys = [...store.items.keys()];
    if (!keys.length) return;
    const interesting = keys.filter((k) => /:(claim|snap|copy):/.test(k));
    for (let i = int(1, 3); i > 0; i--) {
      const key = pick(chance(0.6) && interesting.length ? interesting : keys);
      if (key.includes(':claim:')) claimsLost++;
      store.items.delete(key);
    }
  };

  const act = () => {
    if (!chance(chaos)) return;
    const r = rnd();
    if (r < 0.4 && budget > 0 && stack.length < 3) foreign(() => runOne());
    else if (r < 0.6) evict();
    else if (r < 0.78) changeService();
    else if (r < 0.86) {
      // An execution that died holding a claim.
      const name = chance(0.5) ? 'snapshot' : `ids:S:${int(0, columns.length - 1)}:${int(0, 2)}`;
      world.claim(`ghost${ghosts++}`, name);
      claimsLost++;
    } else if (r < 0.93) downUntil = clock.now() + int(1_000, 40_000);
    else foreign(() => (clock.t += int(100, 6_000)));
  };

  const asked = (kind: 'page' | 'id', key: string, outcome: HttpResponse | Error) => {
    const me = stack[stack.length - 1];
    if (!me) return;
    const answered = !(outcome instanceof Error) && (outcome.status === 200 || outcome.status === 404);
    const broken = !(outcome instanceof Error) && outcome.body === '{"data": [';
    me.requests.push(
      kind === 'id'
        ? { id: key }
        : {
            page: Number(key),
            answered: answered && !broken && outcome.status === 200,
            version: service.listVersion,
            at: clock.now(),
          },
    );
    if (kind === 'id') {
      result.ids++;
      if (me.answered.has(key)) violations.push(`${me.name} asked for ${key} again after it was answered`);
      if (answered && !broken) me.answered.add(key);
    } else {
      result.pages++;
      const page = Number(key);
      if (answered && !broken) {
        const n = (me.pages.get(page) ?? 0) + 1;
        me.pages.set(page, n);
        if (n > 2) violations.push(`${me.name} read list page ${page} ${n} times`);
      }
    }
  };

  hooks.onList = (page) => {
    act();
    // A live list: partners join and leave while it is read.
    if (chance(liveList)) changeService();
    const out = failure() ?? service.page(page, pageCap);
    asked('page', String(page), out);
    return out;
  };
  hooks.onId = (id) => {
    act();
    const out = failure() ?? service.byId(id);
    asked('id', id, out);
    return out;
  };
  hooks.onPut = () => act();
  hooks.onSleep = () => act();
  hooks.onInnerSleep = () => act();

  const claimsOf = (token: string): string[] => {
    const keys = [...store.items.keys()].filter((k) => k.includes(':claim:'));
    const hits = memo.getMany(keys);
    return keys.filter((k) => hits.get(k)?.value === token);
  };

  function check(name: string, ids: readonly string[], out: ReturnType<Execution['lookup']>, from: number) {
    const to = clock.now();
    if (out.length !== ids.length) violations.push(`${name}: ${out.length} answers for ${ids.length} ids`);
    ids.forEach((raw, i) => {
      const o = out[i];
      const id = raw.trim();
      if (!o) return;
      if (!o.ok) {
        result.answers.error++;
        if (blank(raw)) return;
        if (o.error.code === 'NOT_FOUND' && !service.wasAbsent(id, from - TTL_MS - SLACK_MS, to))
          violations.push(`${name}: ${id} not found although the service held it all along`);
        if (['BAD_RESPONSE', 'AUTH', 'QUOTA', 'NO_KEY'].includes(o.error.code) && id.length < 100)
          violations.push(`${name}: ${id} failed with ${o.error.code}: ${o.error.message}`);
        return;
      }
      result.answers[o.staleSince === undefined ? 'ok' : 'stale']++;
      if (blank(raw)) {
        violations.push(`${name}: a blank id answered with ${String(o.value.id)}`);
        return;
      }
      if (o.value.id !== id) {
        violations.push(`${name}: ${id} answered with the record of ${String(o.value.id)}`);
        return;
      }
      held(name, o.value, o.staleSince, from, to);
    });
  }

  /** A record answered between `from` and `to`: one the service held while it could be fresh, or (stale) when it says. */
  function held(name: string, record: ServiceRecord, since: number | undefined, from: number, to: number): void {
    const id = String(record.id);
    const t = text(record);
    const versions = (service.history.get(id) ?? []).filter((v) => v.text === t);
    if (!versions.length) {
      violations.push(`${name}: ${id} answered with ${t}, which the service never held`);
      return;
    }
    if (since === undefined) {
      if (!versions.some((v) => v.from <= to && v.to >= from - TTL_MS - SLACK_MS))
        violations.push(`${name}: ${id} answered fresh with ${t}, held only until ${versions[0].to - from} ms`);
    } else if (!versions.some((v) => v.from <= since + SLACK_MS && v.to >= since - SLACK_MS)) {
      violations.push(`${name}: ${id} answered stale since ${since} with ${t}, not held then`);
    }
  }

  /** LP_FIND: every active partner, each record honest, each once. */
  function checkFind(name: string, found: { records: ServiceRecord[]; staleSince?: number }, from: number) {
    const ids = found.records.map((r) => String(r.id));
    if (new Set(ids).size !== ids.length) violations.push(`${name}: LP_FIND lists a partner twice`);
    for (const r of found.records) held(name, r, found.staleSince, from, clock.now());
  }

  /**
   * A read of the whole list that the list held still during (each page answered, from a page 1
   * asked for at its start to the end, the members unchanged) gives this execution the list: it
   * asks for no listed partner by id after it, and LP_FIND gives that list (unless a claim was lost meanwhile: see the check).
   */
  function checkStillRead(me: Running, lostBefore: number, find?: ServiceRecord[]): void {
    // A claim the cache lost (or another execution wrote over) is not one this execution holds: it may not read.
    if (claimsLost !== lostBefore) return;
    const pages = me.requests.flatMap((r, i) => ('page' in r ? [{ ...r, i }] : []));
    if (!pages.length || pages.some((p) => !p.answered)) return;
    // The last read begins at the last page 1 asked for (an execution that read only a share of another's read asked none).
    const start = pages.map((p) => p.page).lastIndexOf(1);
    if (start < 0) return;
    const pass = pages.slice(start);
    const version = pass[0].version;
    const members = service.membersAt.get(version) as Set<string>;
    const total = members.size;
    const last = Math.max(1, Math.ceil(total / pageCap)) + (total > 0 && total % pageCap === 0 ? 1 : 0);
    const asked = new Set(pass.map((p) => p.page));
    if (pass[0].page !== 1 || pass.some((p) => p.version !== version)) return;
    if (!Array.from({ length: last }, (_, k) => k + 1).every((p) => asked.has(p))) return;
    const after = me.requests.slice(pass[pass.length - 1].i + 1).flatMap((r) => ('id' in r ? [r.id] : []));
    const listed = after.filter((id) => members.has(id));
    if (listed.length)
      violations.push(`${me.name}: read the list whole while it held still, then asked for ${listed.join(', ')} by id`);
    const got = find?.map((r) => String(r.id)).join(',');
    if (find && got !== service.listAt(version).join(','))
      violations.push(`${me.name}: LP_FIND read the list whole while it held still, and gives another list`);
  }

  /**
   * A read of the list that the list moved under is done again, from page 1: an execution that read
   * it once, saw it move, and then asks by id for partners it lists, had no time left for a second read.
   */
  function checkReread(me: Running, lostBefore: number): void {
    if (claimsLost !== lostBefore) return;
    const pages = me.requests.flatMap((r, i) => ('page' in r ? [{ ...r, i }] : []));
    if (!pages.length || pages.some((p) => !p.answered)) return;
    // A read done again is a whole read: its page 1 is asked for again (the first one may be of another list), so a
    // page asked for twice has a page 1 asked for between the two (pages of a shared read come in any order).
    pages.forEach((p, k) => {
      const before = pages.slice(0, k).map((q) => q.page);
      if (p.page !== 1 && before.includes(p.page) && !before.slice(before.lastIndexOf(p.page)).includes(1))
        violations.push(`${me.name}: read the list again from page ${p.page}, with a page 1 from the read before`);
    });
    // An execution that asked for page 1 once read the list (or its part of a read shared with others) once.
    if (pages.filter((p) => p.page === 1).length !== 1) return;
    const first = pages[0];
    const last = pages[pages.length - 1];
    if (first.version === last.version) return;
    // Time for another read: page 1 goes while the read may still use the time (all but 9.5 s and the client's 1.5 s).
    if (last.at > me.deadline - 12_000) return;
    const members = service.membersAt.get(last.version) as Set<string>;
    const after = me.requests.slice(last.i + 1).flatMap((r) => ('id' in r ? [r.id] : []));
    const listed = after.filter((id) => members.has(id));
    if (listed.length)
      violations.push(
        `${me.name}: read the list once as it moved, then asked for ${listed.length} listed partners by id`,
      );
  }

  function runOne(): void {
    budget--;
    const token = `x${serial++}`;
    const deadlineMs = chance(0.15) ? int(9_000, 20_000) : 30_000;
    const execution = world.execution(token, deadlineMs, seeded(seed * 7919 + serial));
    const me: Running = {
      name: [...stack.map((r) => r.token), token].join('>'),
      token,
      deadline: clock.now() + deadlineMs,
      answered: new Set(),
      pages: new Map(),
      requests: [],
      foreignUntil: -Infinity,
    };
    const column = int(0, columns.length - 1);
    const ids = columns[column];
    let wanted: string[];
    let neighbours: (() => Neighbours | undefined) | undefined;
    const find = chance(0.1);
    if (find) {
      wanted = [];
      me.name += ':LP_FIND';
    } else if (chance(0.75) || ids.length < 2) {
      const row = int(0, ids.length - 1);
      wanted = [ids[row]];
      if (!blank(ids[row])) neighbours = () => neighboursOf({ column, row });
      me.name += `:cell ${column}:${row}`;
    } else {
      const a = int(0, ids.length - 1);
      const b = Math.min(ids.length, a + int(1, 120));
      wanted = ids.slice(a, b);
      me.name += `:range ${column}:${a}-${b}`;
    }
    const from = clock.now();
    const lostBefore = claimsLost;
    stack.push(me);
    let out: ReturnType<Execution['lookup']> = [];
    let all: ReturnType<Execution['activeRecords']> | undefined;
    try {
      if (find) all = execution.activeRecords();
      else out = execution.lookup(wanted, neighbours);
    } catch (e) {
      // LP_FIND says why it has no list; a lookup never throws.
      if (!find || !(e instanceof ServiceError))
        violations.push(`${me.name}: lookup threw ${(e as Error).stack ?? String(e)}`);
    } finally {
      stack.pop();
    }
    result.executions++;
    check(me.name, wanted, out, from);
    if (all) checkFind(me.name, all, from);
    checkStillRead(me, lostBefore, find ? (all?.records ?? []) : undefined);
    checkReread(me, lostBefore);
    if (clock.now() > Math.max(me.deadline, me.foreignUntil))
      violations.push(`${me.name}: ended ${clock.now() - me.deadline} ms past its deadline`);
    const left = claimsOf(token);
    if (left.length) violations.push(`${me.name}: left its claims ${left.join(', ')}`);
  }

  // The run: executions one after another (others run inside them at the world's moments), with
  // time passing, the list changing and the cache evicting between them.
  while (budget > 0) {
    runOne();
    const gap = rnd();
    if (gap < 0.5) clock.t += int(0, 2_000);
    else if (gap < 0.8) clock.t += int(2_000, CLAIM_MS * 2);
    else if (gap < 0.93) clock.t += int(60_000, TTL_MS / 2);
    else clock.t += TTL_MS + int(60_000, 30 * 60_000);
    for (let i = int(0, 2); i > 0; i--) changeService();
    if (chance(0.3)) evict();
    if (chance(0.1)) downUntil = clock.now() + int(1_000, 60_000);
  }
  return result;
}
