/**
 * The list of equivalent mutants (equivalent.json beside this file): the changes StrykerJS makes
 * that no caller can tell from the code, each with the reason. Read by the mutation summary
 * (scripts/mutation-summary.ts) and checked by test/unit/build/mutation-equivalents.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One equivalent mutant: its file, mutator, replacement, a piece of its source line, and why no caller can tell. */
export interface Equivalent {
  file: string;
  mutator: string;
  replacement: string;
  line: string;
  why: string;
  /**
   * Set on a mutant that is no equivalent but that a test kills where StrykerJS cannot see it (the
   * test runs the code in a child process, or the built bundle in the emulator, so per-test
   * coverage never picks it): that test's file. The summary counts such a mutant as killed and
   * names the test.
   */
  killedBy?: string;
}

/** The listed equivalents of the project at `root`. */
export function readEquivalents(root: string): Equivalent[] {
  return JSON.parse(readFileSync(join(root, 'test/mutation/equivalent.json'), 'utf8')) as Equivalent[];
}
