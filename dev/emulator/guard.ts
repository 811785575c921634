/**
 * The guard proxy: an emulated service answers only the members it implements. Anything else
 * throws "not emulated: Service.member" instead of quietly returning undefined, so a bundle that
 * starts using a new Apps Script member fails loudly in tests until the emulator learns it.
 */

const PASS = new Set([
  'then',
  'toJSON',
  'constructor',
  'valueOf',
  'toString',
  Symbol.toPrimitive,
  Symbol.toStringTag,
  Symbol.iterator,
  'asymmetricMatch',
  '$$typeof',
  'nodeType',
  'tagName',
]);

export function guard<T extends object>(target: T, name: string): T {
  return new Proxy(target, {
    get(obj, prop, receiver) {
      if (prop in obj || PASS.has(prop as string)) {
        const value = Reflect.get(obj, prop, receiver);
        return typeof value === 'function' ? value.bind(obj) : value;
      }
      throw new Error(`not emulated: ${name}.${String(prop)}`);
    },
  });
}
