/**
 * Short claims in the shared cache, so that concurrent executions (Sheets evaluates many cells of
 * a column at once) do a piece of work once: one claims it, the others wait briefly for its
 * result or go their own way. A claim is the claimer's token under a memo key; it lapses after
 * CLAIM_MS (its execution was killed or is slow). The cache has no compare-and-set: two claims
 * written at the same instant are settled by reading back which value stayed.
 */
import type { Memo } from './memo';
import type { Clock } from './transport';

/** A claim older than this is abandoned (its execution was killed or is slow). */
export const CLAIM_MS = 25_000;
/** How often a waiting execution looks for what it waits for. */
export const POLL_MS = 300;

export class Claims {
  constructor(
    private readonly memo: Memo,
    private readonly clock: Clock,
    /** This execution. */
    private readonly token: string,
    /** Time this execution has left (ms). */
    private readonly timeLeft: () => number,
  ) {}

  private key(name: string): string {
    return this.memo.key('claim', name);
  }

  /** Claims `name` for this execution; false when another execution holds a live claim on it. */
  claim(name: string): boolean {
    const key = this.key(name);
    const held = this.memo.getMany([key]).get(key);
    if (held && held.value !== this.token && this.clock.now() - held.fetchedAt < CLAIM_MS) return false;
    this.memo.putMany([[key, this.token]]);
    // Two executions may have written at once: the value that stayed decides.
    return this.memo.getMany([key]).get(key)?.value === this.token;
  }

  /** Whether this execution still holds its claim on `name` (two claims written at the same instant: the later one stays). */
  holds(name: string): boolean {
    const key = this.key(name);
    return this.memo.getMany([key]).get(key)?.value === this.token;
  }

  /** Renews this execution's claim on `name`, so that a long piece of work is not taken for abandoned. */
  renew(name: string): void {
    this.memo.putMany([[this.key(name), this.token]]);
  }

  release(name: string): void {
    this.memo.remove([this.key(name)]);
  }

  /**
   * Waits (polling, within CLAIM_MS and while more than `keepMs` of this execution is left) until
   * `done` holds or the claim on `name` is gone; true when `done` held.
   */
  waitFor(name: string, done: () => boolean, keepMs: number): boolean {
    const key = this.key(name);
    const until = this.clock.now() + CLAIM_MS;
    while (this.clock.now() < until && this.timeLeft() > keepMs) {
      this.clock.sleep(POLL_MS);
      if (done()) return true;
      const held = this.memo.getMany([key]).get(key);
      if (!held || this.clock.now() - held.fetchedAt >= CLAIM_MS) return done();
    }
    return false;
  }
}
