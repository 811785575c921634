/**
 * The one wrapper every custom function body runs in: any failure becomes a short message the
 * cell shows, with the saved key redacted (a ServiceError keeps its own message; anything else
 * is cut to 200 characters after "Investor Data failed: ").
 */
import { ServiceError } from '../api/errors';
import { redact, redactAndCut } from '../api/redact';
import type { Cell } from '../table/cells';
import { knownSecrets } from './settings';

export type FormulaResult = Cell | Cell[][];

/** Runs a custom function body and turns any failure into a short, redacted message. */
export function guard(body: () => FormulaResult): FormulaResult {
  try {
    return body();
  } catch (e) {
    const keys = knownSecrets();
    if (e instanceof ServiceError) throw new Error(redact(e.message, keys));
    const text = e instanceof Error ? e.message : String(e);
    throw new Error(`Investor Data failed: ${redactAndCut(text, keys, 200)}`);
  }
}
