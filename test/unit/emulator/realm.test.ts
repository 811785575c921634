/**
 * The bundle's realm (dev/emulator/realm.ts): its global is an ordinary object, as Apps Script's
 * is, not a sandbox behind Node's contextify interceptors (which make every global lookup of the
 * bundle, Math or JSON, some 50 times slower than V8 does it, so CPU-bound code would look far
 * slower in the emulator than in Apps Script); and dates read the simulated clock.
 */
import vm from 'node:vm';
import { createRealm } from '../../../dev/emulator/realm';

describe("the bundle's realm", () => {
  test('its global object is the context itself, where globals set by the host are seen by the script', () => {
    const realm = createRealm(
      () => 0,
      (_, run) => run(),
    );
    expect(vm.runInContext('globalThis', realm.context)).toBe(realm.context);
    realm.context.UrlFetchApp = { name: 'service' };
    expect(vm.runInContext('UrlFetchApp.name', realm.context)).toBe('service');
    vm.runInContext('function onOpen() { return 1; }', realm.context);
    expect(typeof realm.context.onOpen).toBe('function');
  });

  test('Date reads the simulated clock, and the clock hook is gone from the global', () => {
    const realm = createRealm(
      () => Date.UTC(2026, 0, 2),
      (_, run) => run(),
    );
    expect(vm.runInContext('new Date().toISOString()', realm.context)).toBe('2026-01-02T00:00:00.000Z');
    expect(vm.runInContext('typeof __simNow', realm.context)).toBe('undefined');
  });
});
