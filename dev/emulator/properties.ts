/**
 * PropertiesService: script, user and document stores of strings, with Google's limits of 9 KB
 * per value and 500 KB per store. Custom functions read the spreadsheet owner's user store and
 * may not write anywhere.
 */
import type { Execution } from './execution';
import { COST } from './execution';

export const MAX_PROPERTY_VALUE_BYTES = 9 * 1024;
export const MAX_STORE_BYTES = 500 * 1024;

type PropsApi = Pick<
  GoogleAppsScript.Properties.Properties,
  | 'getProperty'
  | 'getProperties'
  | 'getKeys'
  | 'setProperty'
  | 'setProperties'
  | 'deleteProperty'
  | 'deleteAllProperties'
>;

export class EmulatedProperties implements PropsApi {
  constructor(
    private readonly store: Map<string, string>,
    private readonly exec: Execution,
    private readonly label: string,
  ) {}

  private charge(method: string): void {
    this.exec.charge(`${this.label}.${method}`, COST.properties);
  }

  private write(method: string, change: (next: Map<string, string>) => void): GoogleAppsScript.Properties.Properties {
    this.charge(method);
    if (this.exec.readOnly) this.exec.deny(`${this.label}.${method}`);
    const next = new Map(this.store);
    change(next);
    let total = 0;
    for (const [k, v] of next) {
      if (Buffer.byteLength(v, 'utf8') > MAX_PROPERTY_VALUE_BYTES)
        throw this.exec.makeError('Exception: Argument too large: value');
      total += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(v, 'utf8');
    }
    if (total > MAX_STORE_BYTES)
      throw this.exec.makeError(
        'Exception: You have exceeded the property storage quota. Please remove some properties and try again.',
      );
    this.store.clear();
    for (const [k, v] of next) this.store.set(k, v);
    return this as unknown as GoogleAppsScript.Properties.Properties;
  }

  getProperty(key: string): string | null {
    this.charge('getProperty');
    return this.store.get(key) ?? null;
  }
  getProperties(): Record<string, string> {
    this.charge('getProperties');
    return Object.fromEntries(this.store);
  }
  getKeys(): string[] {
    this.charge('getKeys');
    return [...this.store.keys()];
  }
  setProperty(key: string, value: string): GoogleAppsScript.Properties.Properties {
    return this.write('setProperty', (next) => next.set(String(key), String(value)));
  }
  setProperties(properties: Record<string, string>, deleteAllOthers?: boolean): GoogleAppsScript.Properties.Properties {
    return this.write('setProperties', (next) => {
      if (deleteAllOthers) next.clear();
      for (const [k, v] of Object.entries(properties)) next.set(k, String(v));
    });
  }
  deleteProperty(key: string): GoogleAppsScript.Properties.Properties {
    return this.write('deleteProperty', (next) => next.delete(key));
  }
  deleteAllProperties(): GoogleAppsScript.Properties.Properties {
    return this.write('deleteAllProperties', (next) => next.clear());
  }
}

export class EmulatedPropertiesService
  implements
    Pick<
      GoogleAppsScript.Properties.PropertiesService,
      'getScriptProperties' | 'getUserProperties' | 'getDocumentProperties'
    >
{
  constructor(
    private readonly exec: Execution,
    private readonly stores: (scope: string) => Map<string, string>,
  ) {}
  getScriptProperties(): GoogleAppsScript.Properties.Properties {
    return new EmulatedProperties(
      this.stores('script'),
      this.exec,
      'ScriptProperties',
    ) as unknown as GoogleAppsScript.Properties.Properties;
  }
  getUserProperties(): GoogleAppsScript.Properties.Properties {
    const user = this.exec.readOnly ? this.exec.owner : this.exec.user;
    return new EmulatedProperties(
      this.stores(`user:${user}`),
      this.exec,
      'UserProperties',
    ) as unknown as GoogleAppsScript.Properties.Properties;
  }
  getDocumentProperties(): GoogleAppsScript.Properties.Properties {
    return new EmulatedProperties(
      this.stores('document'),
      this.exec,
      'DocumentProperties',
    ) as unknown as GoogleAppsScript.Properties.Properties;
  }
}
