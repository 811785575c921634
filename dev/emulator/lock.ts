/**
 * LockService: script, user and document locks. "Another process" holding a lock is modelled by
 * a hold with an end time (set by a test, or left by an execution that did not release its lock
 * before Google's own release at its end): tryLock/waitLock wait on the simulated clock until the
 * hold ends or the timeout passes. Executions of a concurrent wave (concurrent.ts) hold locks
 * against each other: a lock another running execution holds makes tryLock throw `Blocked`,
 * which the wave's scheduler answers by advancing this execution's clock a poll step and asking
 * again (in simulated-time order), until the holder releases it or the timeout passes. A holder
 * outside the wave (a sidebar call is a wave of its own) is waited for in real time as well. An
 * execution run on this thread (Emulator.run) cannot wait for a wave's holder, which cannot move
 * while it runs: it waits out its timeout and gives up, as it would behind a holder that long.
 */
import type { Execution } from './execution';
import { COST } from './execution';

export interface LockState {
  /** scope → the instant (simulated ms) until which some other execution holds it. */
  heldUntil: Map<string, number>;
  /** scope → the held-set of the running execution that holds it (EmulatedLockService.held). */
  holders?: Map<string, Set<string>>;
  /** The held-sets of executions running in a concurrent wave: these can wait for another's lock, one on this thread cannot. */
  inWaves?: Set<ReadonlySet<string>>;
}

/** How often a waiting tryLock looks again at a lock another running execution holds (simulated ms). */
export const LOCK_POLL_MS = 50;

/** Thrown by tryLock while another running execution holds the lock (its held-set): ask again after `ms` of simulated time. */
export class Blocked {
  constructor(
    readonly ms: number,
    readonly holder: ReadonlySet<string>,
  ) {}
}

class EmulatedLock implements Pick<GoogleAppsScript.Lock.Lock, 'tryLock' | 'waitLock' | 'releaseLock' | 'hasLock'> {
  private mine = false;
  /** While waiting for another running execution's lock: when this tryLock gives up. */
  private deadline: number | undefined;
  constructor(
    private readonly exec: Execution,
    private readonly state: LockState,
    private readonly scope: string,
    private readonly held: Set<string>,
  ) {}

  tryLock(timeoutInMillis: number): boolean {
    if (this.deadline === undefined) this.exec.charge('Lock.tryLock', COST.lock);
    else this.exec.check();
    if (this.mine) return true;
    const until = this.state.heldUntil.get(this.scope) ?? 0;
    let now = this.exec.clock.now();
    const deadline = this.deadline ?? now + Math.max(0, timeoutInMillis);
    if (until > now) {
      this.exec.clock.advance(Math.min(until, deadline) - now);
      this.exec.check();
      if (until > (now = this.exec.clock.now())) return this.giveUp();
    }
    const holder = this.state.holders?.get(this.scope);
    if (holder && holder !== this.held) {
      if (!this.state.inWaves?.has(this.held)) this.exec.clock.advance(Math.max(0, deadline - now));
      if (this.exec.clock.now() >= deadline) return this.giveUp();
      this.deadline = deadline;
      throw new Blocked(Math.min(LOCK_POLL_MS, deadline - now), holder);
    }
    this.deadline = undefined;
    this.state.heldUntil.delete(this.scope);
    this.mine = true;
    this.held.add(this.scope);
    (this.state.holders ??= new Map()).set(this.scope, this.held);
    return true;
  }
  private giveUp(): false {
    this.deadline = undefined;
    return false;
  }
  waitLock(timeoutInMillis: number): void {
    if (!this.tryLock(timeoutInMillis))
      throw this.exec.makeError('Exception: Lock timeout: another process was holding the lock for too long.');
  }
  releaseLock(): void {
    this.exec.charge('Lock.releaseLock', COST.lock);
    this.mine = false;
    this.held.delete(this.scope);
    if (this.state.holders?.get(this.scope) === this.held) this.state.holders.delete(this.scope);
  }
  hasLock(): boolean {
    return this.mine;
  }
}

export class EmulatedLockService
  implements Pick<GoogleAppsScript.Lock.LockService, 'getScriptLock' | 'getUserLock' | 'getDocumentLock'>
{
  /** Scopes this execution holds; released when it ends, as Google does. */
  readonly held = new Set<string>();
  constructor(
    private readonly exec: Execution,
    private readonly state: LockState,
  ) {}
  /** This execution runs in a concurrent wave (until releaseAll): it can wait for a lock another execution holds. */
  joinWave(): void {
    (this.state.inWaves ??= new Set()).add(this.held);
  }
  /** Google releases every lock an execution still holds when it ends. */
  releaseAll(): void {
    for (const scope of this.held) if (this.state.holders?.get(scope) === this.held) this.state.holders.delete(scope);
    this.held.clear();
    this.state.inWaves?.delete(this.held);
  }
  getScriptLock(): GoogleAppsScript.Lock.Lock {
    return new EmulatedLock(this.exec, this.state, 'script', this.held) as unknown as GoogleAppsScript.Lock.Lock;
  }
  getUserLock(): GoogleAppsScript.Lock.Lock {
    return new EmulatedLock(
      this.exec,
      this.state,
      `user:${this.exec.user}`,
      this.held,
    ) as unknown as GoogleAppsScript.Lock.Lock;
  }
  getDocumentLock(): GoogleAppsScript.Lock.Lock {
    return new EmulatedLock(this.exec, this.state, 'document', this.held) as unknown as GoogleAppsScript.Lock.Lock;
  }
}
