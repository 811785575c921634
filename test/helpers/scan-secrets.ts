/**
 * Runs after every integration and e2e test file: the API key must appear nowhere in what any
 * emulator of that file stored or logged (properties other than the user's own, caches, logs,
 * the workbook, the sidebar HTML).
 */
import { created, everythingStored } from './addin';
import { DEMO_KEY } from './service';

afterAll(() => {
  for (const emu of created.splice(0)) {
    const text = `${everythingStored(emu)}\n${emu.workbook.sidebar?.html ?? ''}`;
    expect(text.includes(DEMO_KEY) ? 'the API key was found in what the add-in stored or logged' : 'clean').toBe('clean');
  }
});
