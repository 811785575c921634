/**
 * LockService: script, user and document locks. Executions in the emulator run one at a time,
 * so "another process" holding a lock is modelled by a hold with an end time (set by a test, or
 * left by an execution that did not release its lock before Google's own release at its end):
 * tryLock/waitLock wait on the simulated clock until the hold ends or the timeout passes.
 */
import type { Execution } from './execution';
import { COST } from './execution';

export interface LockState {
  /** scope → the instant (simulated ms) until which some other execution holds it. */
  heldUntil: Map<string, number>;
}

class EmulatedLock implements Pick<GoogleAppsScript.Lock.Lock, 'tryLock' | 'waitLock' | 'releaseLock' | 'hasLock'> {
  private mine = false;
  constructor(private readonly exec: Execution, private readonly state: LockState, private readonly scope: string, private readonly held: Set<string>) {}

  tryLock(timeoutInMillis: number): boolean {
    this.exec.charge('Lock.tryLock', COST.lock);
    if (this.mine) return true;
    const until = this.state.heldUntil.get(this.scope) ?? 0;
    const now = this.exec.clock.now();
    if (until > now) {
      const wait = Math.min(until - now, Math.max(0, timeoutInMillis));
      this.exec.clock.advance(wait);
      this.exec.check();
      if (until > this.exec.clock.now()) return false;
    }
    this.state.heldUntil.delete(this.scope);
    this.mine = true;
    this.held.add(this.scope);
    return true;
  }
  waitLock(timeoutInMillis: number): void {
    if (!this.tryLock(timeoutInMillis)) throw this.exec.makeError('Exception: Lock timeout: another process was holding the lock for too long.');
  }
  releaseLock(): void {
    this.exec.charge('Lock.releaseLock', COST.lock);
    this.mine = false;
    this.held.delete(this.scope);
  }
  hasLock(): boolean {
    return this.mine;
  }
}

export class EmulatedLockService implements Pick<GoogleAppsScript.Lock.LockService, 'getScriptLock' | 'getUserLock' | 'getDocumentLock'> {
  /** Scopes this execution holds; released when it ends, as Google does. */
  readonly held = new Set<string>();
  constructor(private readonly exec: Execution, private readonly state: LockState) {}
  getScriptLock(): GoogleAppsScript.Lock.Lock {
    return new EmulatedLock(this.exec, this.state, 'script', this.held) as unknown as GoogleAppsScript.Lock.Lock;
  }
  getUserLock(): GoogleAppsScript.Lock.Lock {
    return new EmulatedLock(this.exec, this.state, `user:${this.exec.user}`, this.held) as unknown as GoogleAppsScript.Lock.Lock;
  }
  getDocumentLock(): GoogleAppsScript.Lock.Lock {
    return new EmulatedLock(this.exec, this.state, 'document', this.held) as unknown as GoogleAppsScript.Lock.Lock;
  }
}
