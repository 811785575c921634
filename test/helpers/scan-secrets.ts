/**
 * Runs after every integration and e2e test file: no API key an emulator of that file was given
 * (the demo key and every user's saved key), whole or as any 8-character slice, may appear in what
 * the emulator stored or logged (properties other than the users' own, caches, logs, the
 * workbook, the sidebar HTML).
 */
import { everythingStored, watchCreated } from './addin';
import { keysOf, leaksIn } from './secrets';

const created = watchCreated();

afterAll(() => {
  for (const emu of created.splice(0)) {
    const text = `${everythingStored(emu)}\n${emu.workbook.sidebar?.html ?? ''}`;
    expect(leaksIn(text, keysOf(emu))).toEqual([]);
  }
});
