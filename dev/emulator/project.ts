/**
 * One Apps Script project as every document it runs in shares it: its installable triggers, its
 * user and script properties, and what each user has consented to.
 *
 * A bound script has one document; an Editor add-on is one project used in many documents. Each
 * Emulator is one document (its workbook, document properties, caches and clock); Emulators given
 * the same ScriptProject are documents of the same add-on, so a user's user properties, their
 * triggers (getProjectTriggers "gets all installable triggers associated with the current project
 * and current user", https://developers.google.com/apps-script/reference/script/script-app) and
 * their scope grants are the same in each.
 *
 * Granular consent (https://developers.google.com/apps-script/concepts/scopes): a user may grant
 * an add-on some of its manifest's scopes and not others. A user with an entry in `userScopes` has
 * granted only those; a user without one has granted every scope the manifest asks for.
 */
import type { TriggerState } from './script-app';

export interface ScriptProjectOptions {
  /** An Editor add-on (script-app.ts applies Google's add-on trigger rules), not a bound script. */
  addOn?: boolean;
  /** Scopes each user has granted (emails as keys); a user not named has granted them all. */
  userScopes?: Record<string, readonly string[]>;
}

let documents = 0;

/** A document id no other emulated document has (Emulator.documentId when none is given). */
export function newDocumentId(): string {
  documents += 1;
  return `emulated-document-${documents}`;
}

export class ScriptProject {
  readonly addOn: boolean;
  readonly triggers: TriggerState;
  /**
   * The project's property stores that do not belong to one document: "script" and "user:EMAIL".
   * Google keeps script properties per project and user properties per user per project
   * (https://developers.google.com/apps-script/guides/properties), so in an add-on both are the
   * same in every document.
   */
  readonly stores: Map<string, Map<string, string>>;
  /** What each user has granted; absent = every scope of the manifest. */
  private readonly grants = new Map<string, ReadonlySet<string>>();

  /**
   * `stores` lets an Emulator that makes its own project keep every store in one map (its
   * `properties`, which the workbench saves and restores whole).
   */
  constructor(options: ScriptProjectOptions = {}, stores = new Map<string, Map<string, string>>()) {
    this.addOn = !!options.addOn;
    this.triggers = { triggers: [], nextId: 0, addOn: this.addOn };
    this.stores = stores;
    for (const [user, scopes] of Object.entries(options.userScopes ?? {})) this.grantScopes(user, scopes);
  }

  /** A store shared by every document of the project ("script" or "user:EMAIL"). */
  store(scope: string): Map<string, string> {
    let s = this.stores.get(scope);
    if (!s) this.stores.set(scope, (s = new Map()));
    return s;
  }

  /** Records what `user` has granted: these scopes only, or (null) every scope of the manifest. */
  grantScopes(user: string, scopes: readonly string[] | null): void {
    if (scopes === null) this.grants.delete(user);
    else this.grants.set(user, new Set(scopes));
  }

  /**
   * The scopes `user` has granted of the manifest's (`manifest` null: the project declares none,
   * so only the user's own entry limits anything). Null means nothing is refused for a scope.
   */
  grantedScopes(user: string, manifest: ReadonlySet<string> | null): ReadonlySet<string> | null {
    const granted = this.grants.get(user);
    if (!granted) return manifest;
    return manifest ? new Set([...granted].filter((s) => manifest.has(s))) : granted;
  }
}

/** Whether a store of this scope belongs to the project rather than to one document. */
export function isProjectScope(scope: string): boolean {
  return scope === 'script' || scope.startsWith('user:');
}
