/**
 * The API key of the user this execution runs as, for redacting messages before they reach a
 * cell or the sidebar. Reading it never throws: an execution that cannot read properties has no
 * key to leak, and an error path must not fail a second time.
 */
import { readSettings } from './gas/settings';

export function knownKeys(): string[] {
  try {
    const key = readSettings().apiKey;
    return key ? [key] : [];
  } catch {
    return [];
  }
}
