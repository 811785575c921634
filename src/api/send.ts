/**
 * The sending of a client's calls that the memo did not answer (./client.ts): each call's URL
 * checked, then sent through the transport up to `parallelism` at once, one outcome per request,
 * each retried on its own by the retry policy (./retry.ts) within its deadline; a 404 on the
 * active list's first path moves the call to the second, and the path that answers is remembered;
 * answers are remembered in the memo, and a failure hands back the last good value, marked stale,
 * where one exists. A module of its own: a formula answered from the cache never compiles it.
 */
import {
  type Call,
  type ClientState,
  deadlineOf,
  isMissing,
  MAX_URL_LENGTH,
  type Outcome,
  type PathChoice,
} from './calls';
import { badInput, ServiceError, toServiceError, unsent } from './errors';
import type { Cached, Memo } from './memo';
import { grouped } from './numbers';
import type { Operation } from './operations';
import { interpret } from './response';
import { DEFAULT_RETRY, retryDelay } from './retry';
import type { HttpResponse } from './transport';
import { buildUrl } from './url';

/** One call on its way: its index, the retries it has had, and the time (clock ms) before which it must not go. */
interface Attempt {
  i: number;
  retries: number;
  at: number;
  /** Listed paths this call has been asked on (1 until a 404 moves it to the next), the last one `path`. */
  paths: number;
  path?: number;
}

/**
 * The outcomes of `calls`, `out` holding those the memo answered (fresh): the others (`hits` the memo's
 * entries for them, `keys` their memo keys) are sent, ended by `until`, remembered, and stood in for by
 * their last good value when they fail in a way a copy may stand in for.
 */
export function settle<T>(
  state: ClientState,
  calls: Call<T>[],
  keys: Array<string | undefined>,
  hits: Array<Cached | undefined>,
  out: Array<Outcome<T> | undefined>,
  until: number,
): Outcome<T>[] {
  const sender = new Sender(state);
  const memo = state.options.memo;
  const copy = (i: number) => (hits[i] !== undefined && !isMissing(hits[i]?.value) ? hits[i] : undefined);
  const asked = out.flatMap((o, i) => (o ? [] : [i]));
  for (const i of asked) out[i] = sender.unsendable(calls[i]);
  const pending = asked.filter((i) => !out[i]);
  const hung = pending.length ? state.options.health?.hung() : undefined;
  if (hung) for (const i of pending) out[i] = { ok: false, error: new ServiceError('TIMEOUT', hung) };
  else sender.send(calls, pending, out, (i) => copy(i) !== undefined, Math.min(until, deadlineOf(state.options)));
  // Unknown ids are remembered too, so a sheet full of typos does not refetch them on every
  // recalculation; but a "not found" never replaces a good copy (it stays the last good value).
  const toRemember = pending.flatMap((i): Array<[string, unknown]> => {
    const o = out[i] as Outcome<T>;
    if (!keys[i]) return [];
    if (o.ok) return [[keys[i] as string, o.value]];
    // Only calls by id are cached (keys[i]): a "not found" here is an unknown id.
    const missing = o.error.code === 'NOT_FOUND' && !copy(i);
    return missing ? [[keys[i] as string, { $missing: o.error.message }]] : [];
  });
  if (memo && toRemember.length) memo.putMany(toRemember);
  return out.map((o, i) => {
    const result = o as Outcome<T>;
    const hit = copy(i);
    if (result.ok || !hit || !result.error.fallsBack) return result;
    state.stats.staleServed++;
    return { ok: true, value: hit.value as T, staleSince: hit.fetchedAt };
  });
}

class Sender {
  constructor(private readonly state: ClientState) {}

  /** The call's answer when no request can carry it (its URL refused or too long), else undefined. */
  unsendable<T>(call: Call<T>): Outcome<T> | undefined {
    let url: string;
    try {
      url = this.url(call, true);
    } catch (e) {
      // A query value no URL can carry (buildUrl names it): this call's answer, not the batch's.
      if (e instanceof ServiceError) return { ok: false, error: e };
      throw e;
    }
    if (url.length <= MAX_URL_LENGTH) return undefined;
    const message =
      call.id === undefined
        ? `The request URL is too long (${grouped(url.length)} characters): check the service address.`
        : `The id is too long for a request URL (${grouped(String(call.id).length)} characters).`;
    return { ok: false, error: badInput(message) };
  }

  private url(call: Call<unknown>, withKey: boolean): string {
    const path = call.op.paths[this.pathIndex(call.op)];
    return buildUrl(
      this.state.options.baseUrl,
      path,
      withKey ? { ...call.query, apiKey: this.state.options.apiKey } : call.query,
    );
  }

  private pathIndex(op: Operation): number {
    return this.path(op).now;
  }

  private path(op: Operation): PathChoice {
    const memo = this.state.options.memo;
    let choice = this.state.paths.get(op.name);
    if (!choice) {
      const hit = op.paths.length > 1 && memo ? memo.getMany([this.pathKey(op)]).get(this.pathKey(op)) : undefined;
      const known = typeof hit?.value === 'number' && hit.value < op.paths.length;
      const saved = known ? (hit?.value as number) : 0;
      choice = { now: saved, saved, known };
      this.state.paths.set(op.name, choice);
    }
    return choice;
  }

  private pathKey(op: Operation): string {
    return (this.state.options.memo as Memo).key('path', op.tag);
  }

  /**
   * Sends the pending calls, up to `parallelism` at once, each with its own not-before time: a
   * call that failed and may succeed later waits alone (Retry-After, or backoff) while the others
   * go on. When nothing is ready the client sleeps until the earliest call is, never past
   * `deadline`. A retry must end by `deadline` too, taking as long as the attempt it repeats: a
   * call that could only be retried too late keeps its last error, and one never sent ends UNSENT.
   */
  send<T>(
    calls: Call<T>[],
    pending: number[],
    out: Array<Outcome<T> | undefined>,
    hasCopy: (i: number) => boolean,
    deadline: number,
  ): void {
    const clock = this.state.options.clock;
    let queue: Attempt[] = pending.map((i) => ({ i, retries: 0, at: 0, paths: 1 }));
    while (queue.length) {
      const now = clock.now();
      const due = queue
        .filter((a) => a.at <= now)
        .sort((a, b) => a.i - b.i)
        .slice(0, this.state.options.parallelism ?? 20);
      const next = due.length ? now : Math.min(...queue.map((a) => a.at));
      if (next > deadline) break;
      if (!due.length) {
        clock.sleep(next - now);
        continue;
      }
      queue = queue.filter((a) => !due.includes(a));
      for (const a of due) a.path = this.pathIndex(calls[a.i].op);
      const requests = due.map((a) => ({ url: this.url(calls[a.i], true), headers: { accept: 'application/json' } }));
      const answers = this.state.options.transport.fetchAll(requests, deadline);
      // A retry is expected to take as long as the attempt it repeats: it must start that much before the deadline.
      const took = clock.now() - now;
      due.forEach((a, k) => {
        const result = this.outcome(calls[a.i], answers[k]);
        if (!result.ok && result.error.code === 'UNSENT') {
          if (a.paths > 1) this.keepPath(calls[a.i].op, false);
          return;
        }
        this.state.stats.fetches++;
        out[a.i] = result;
        if (result.ok) this.keepPath(calls[a.i].op);
        // A 404 on a path the call has another for is no answer: the call is asked there, now or (unsent) later.
        if (!result.ok && result.error.code === 'NOT_FOUND' && this.otherPath(calls[a.i], a)) {
          out[a.i] = undefined;
          queue.push({ ...a, at: 0, paths: a.paths + 1 });
          return;
        }
        const again = result.ok ? undefined : this.retry(a, result.error, hasCopy(a.i), deadline - took);
        if (again) queue.push(again);
      });
    }
    // A call moved to another path and left unsent: the next execution asks that path first.
    for (const a of queue) if (a.paths > 1) this.keepPath(calls[a.i].op, false);
    for (const i of pending) out[i] ??= { ok: false, error: unsent() };
  }

  /** The call's next attempt after `error`, or undefined: it ends with that error. */
  private retry(a: Attempt, error: ServiceError, hasCopy: boolean, deadline: number): Attempt | undefined {
    const delay = retryDelay(
      error,
      a.retries + 1,
      { ...DEFAULT_RETRY, ...this.state.options.retry },
      this.state.options.random,
      hasCopy,
    );
    const at = this.state.options.clock.now() + (delay ?? 0);
    if (delay === undefined || at > deadline) return undefined;
    this.state.stats.retries++;
    return { ...a, retries: a.retries + 1, at };
  }

  private outcome<T>(call: Call<T>, answer: HttpResponse | Error): Outcome<T> {
    const secrets = [this.state.options.apiKey];
    const fail = (error: ServiceError): Outcome<T> => ({ ok: false, error: this.explain(error, call) });
    if (answer instanceof Error) return fail(toServiceError(answer, secrets));
    const result = interpret(answer, this.url(call, false), secrets, this.state.options.clock.now());
    if (!result.ok) return fail(result.error);
    try {
      return { ok: true, value: call.read(result.body.data, result.body) };
    } catch (e) {
      // A body that parsed but is not what the operation promises follows the same rule as any failure.
      return fail(toServiceError(e, secrets));
    }
  }

  /**
   * Moves a list's call that was not found to the next listed path, while it has one it was not
   * asked on: page 1 always, any other page while no path of the list has answered (a later page's
   * 404 on a path that answers is the list's own: it has no such page). The path is remembered
   * once it answers (keepPath), or when a call moved to it is left unsent (the next execution asks
   * it there first: the 404 was no answer, and the time that ran out is none either).
   */
  private otherPath(call: Call<unknown>, a: Attempt): boolean {
    const choice = this.path(call.op);
    // Only the active list has two paths, and its calls always name a page.
    const untried = call.query.page === 1 || !choice.known;
    if (!untried || a.paths >= call.op.paths.length) return false;
    // Another call of the batch may have moved the list on already: this one follows.
    if (choice.now !== a.path) return true;
    choice.now = (choice.now + 1) % call.op.paths.length;
    return true;
  }

  /** The path that just answered (or that a call left unsent moved to) is the one later executions ask first. */
  private keepPath(op: Operation, answered = true): void {
    const choice = this.path(op);
    if (choice.now === choice.saved && (choice.known || !answered)) return;
    choice.saved = choice.now;
    choice.known ||= answered;
    if (op.paths.length > 1) this.state.options.memo?.putMany([[this.pathKey(op), choice.now]]);
  }

  private explain(error: ServiceError, call: Call<unknown>): ServiceError {
    if (error.code !== 'NOT_FOUND' || call.id === undefined || !call.op.subject) return error;
    const where = { status: error.status, url: error.url };
    return new ServiceError('NOT_FOUND', `Unknown ${call.op.subject} id: ${call.id}`, where);
  }
}
