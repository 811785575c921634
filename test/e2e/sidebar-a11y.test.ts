/**
 * The sidebar as a person who works by keyboard and screen reader meets it, in a 300 px window:
 * axe-core (WCAG 2.0/2.1/2.2 A and AA rules) over every state (no key, key saved, the address
 * question, errors shown, import running, import failed, saved imports with schedules, a question
 * asked), each also at 200 % text size (text doubles, no sideways scrolling, every target at
 * least 24 × 24 px) and with borders of 3:1 against the panel;
 * and each task done by pressing keys, asserting where focus is (role and accessible name, as a
 * screen reader says it) and what the status regions announced.
 */
import type { Page } from 'playwright-core';
import { addin } from '../helpers/addin';
import { shot } from '../helpers/browser';
import { call, saveImport } from '../helpers/imports';
import { DEMO_KEY, type RunningService, servicesForThisFile, startService } from '../helpers/service';
import {
  announced,
  clearAnnounced,
  focused,
  press,
  type SidebarPage,
  tabTo,
  violations,
  sidebarsForThisFile,
} from '../helpers/sidebar-page';

const services = servicesForThisFile(1, ['--partners', '240']);
let svc: RunningService;
let host: string;

const openFor = sidebarsForThisFile();
beforeAll(() => {
  [svc] = services;
  host = svc.url.replace('http://', '');
});

const sidebarFor = (a: ReturnType<typeof addin>): Promise<SidebarPage> => openFor(a.emu);

/** At this text size in 300 px: what scrolls sideways, and every visible target smaller than 24 × 24 px. */
async function reflowProblems(page: Page, textSize: '100%' | '200%'): Promise<string[]> {
  await page.addStyleTag({ content: `html { font-size: ${textSize} !important; }` });
  const problems = await page.evaluate((size) => {
    const out: string[] = [];
    const root = document.documentElement;
    // The text follows the user's text size (sizes in rem): 13 px at 100 %, 26 px at 200 %.
    const text = Number.parseFloat(getComputedStyle(document.body).fontSize);
    if (text !== (size === '200%' ? 26 : 13)) out.push(`body text is ${text} px at ${size}`);
    for (const e of document.querySelectorAll<HTMLElement>('h1, h2, h3, label, button, input, select, p, dd')) {
      const px = Number.parseFloat(getComputedStyle(e).fontSize);
      if (size === '200%' && px < 22) out.push(`${e.tagName.toLowerCase()}#${e.id} text is ${px} px at 200 %`);
    }
    if (root.scrollWidth > root.clientWidth)
      out.push(`page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    for (const e of document.querySelectorAll<HTMLElement>('button, input, select, [tabindex="0"]')) {
      const box = e.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      const name = `${e.id || e.getAttribute('aria-label') || e.textContent} at ${size}`;
      if (box.width < 24 || box.height < 24)
        out.push(`target ${name}: ${box.width.toFixed(0)} × ${box.height.toFixed(0)}`);
      if (box.right > root.clientWidth + 0.5) out.push(`${name} runs past the edge: ${box.right.toFixed(0)}`);
    }
    return out;
  }, textSize);
  await page.evaluate(() => document.querySelector('style:last-of-type')?.remove());
  return problems;
}

/** Fields, buttons and boxes whose border is under 3:1 against the white panel (WCAG 1.4.11; axe does not check it). */
function borderProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const luminance = (css: string) => {
      const [r, g, b] = (css.match(/\d+(\.\d+)?/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const out: string[] = [];
    for (const e of document.querySelectorAll<HTMLElement>(
      'input:not([type="radio"]), select, button:not(.action), .columns, .question, .imports > li',
    )) {
      if (!e.getClientRects().length) continue;
      const ratio = 1.05 / (luminance(getComputedStyle(e).borderTopColor) + 0.05);
      if (ratio < 3) out.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className}: ${ratio.toFixed(2)}:1`);
    }
    return out;
  });
}

async function checkState(s: SidebarPage, name: string): Promise<void> {
  expect(await violations(s.page)).toEqual([]);
  expect(await borderProblems(s.page)).toEqual([]);
  expect(await reflowProblems(s.page, '100%')).toEqual([]);
  expect(await reflowProblems(s.page, '200%')).toEqual([]);
  await s.page.screenshot({ path: shot(`sidebar-a11y-${name}`), fullPage: true });
}

describe('axe finds nothing, and the sidebar reflows, in every state', () => {
  test('no key: focus starts in the key field', async () => {
    const s = await sidebarFor(addin(svc.url, null));
    await s.page.locator('#key-status:has-text("No API key saved yet.")').waitFor();
    expect(await focused(s.page)).toEqual({ role: 'textbox', name: 'API key' });
    await checkState(s, 'no-key');
  });

  test('key saved, then errors shown (every field at fault marked, focus on the first)', async () => {
    const s = await sidebarFor(addin(svc.url));
    await s.page.locator('#key-status:has-text("is saved and sent to")').waitFor();
    await checkState(s, 'key-saved');
    await s.page.locator('#base-url').fill('');
    await s.page.locator('#cache-ttl').fill('');
    await s.page.locator('#save-key').click();
    await s.page.locator('#api-key-error:has-text("Paste your API key first.")').waitFor();
    await s.page.locator('#save-settings').click();
    await s.page.locator('#cache-ttl-error:not([hidden])').waitFor();
    expect(await focused(s.page)).toEqual({ role: 'textbox', name: 'Service address' });
    for (const id of ['base-url', 'cache-ttl']) {
      expect(await s.page.locator(`#${id}`).getAttribute('aria-invalid')).toBe('true');
      const described = (await s.page.locator(`#${id}`).getAttribute('aria-describedby')) ?? '';
      expect(described.split(' ')).toContain(`${id}-error`);
    }
    expect(await s.page.locator('#cache-ttl-error').textContent()).toBe(
      'Cache lifetime must be a whole number of seconds from 0 to 21600.',
    );
    expect(s.calls.map((c) => c.name)).not.toContain('saveSettings');
    await checkState(s, 'errors');
  });

  test('the address question shown (an editor changed the address)', async () => {
    const a = addin(svc.url);
    a.emu.run('saveSettings', [{ baseUrl: 'https://data.example.com' }], {
      kind: 'sidebar',
      user: 'editor@example.com',
    });
    const s = await sidebarFor(a);
    await s.page.getByRole('group', { name: 'Send my key to data.example.com?' }).waitFor();
    expect(await focused(s.page)).toEqual({ role: 'button', name: 'Send my key to data.example.com' });
    await checkState(s, 'consent');
  });

  test('import running (a step held), import done with a schedule, a question asked', async () => {
    const a = addin(svc.url);
    const s = await sidebarFor(a);
    // The first step of a run can take 20 s: held here, the sidebar shows the run as started.
    s.hold('startImport');
    await s.page.locator('#import').click();
    await s.held();
    await s.page.locator('#progress-text:has-text("starting…")').waitFor();
    const bar = s.page.getByRole('progressbar', { name: 'Import progress' });
    expect(await bar.getAttribute('aria-valuetext')).toBe('starting…');
    expect(await s.page.getByRole('button', { name: 'Cancel the import' }).isVisible()).toBe(true);
    await checkState(s, 'running');
    s.release();
    await s.page.locator('#import-message.ok').waitFor({ timeout: 60_000 });
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/^page (\d+) of \1 · rows (\d+) of \2$/);
    const item = s.page.getByRole('list', { name: 'Saved imports' }).getByRole('listitem');
    await item.getByRole('combobox', { name: 'Repeat' }).selectOption('week');
    await item.getByRole('combobox', { name: 'On' }).selectOption('3');
    await item.getByRole('combobox', { name: 'At (UTC)' }).selectOption('9');
    await item.getByRole('button', { name: 'Save schedule: import into Limited partners' }).click();
    await s.page.locator('#import-message:has-text("Schedule saved")').waitFor();
    expect(await s.page.locator('#import-message').textContent()).toBe(
      'Schedule saved for "Limited partners": weekly on Wednesday at 09:00 UTC.',
    );
    await checkState(s, 'scheduled');
    await item.getByRole('button', { name: 'Delete: import into Limited partners' }).click();
    await s.page.getByRole('group', { name: 'Delete the import into "Limited partners"?' }).waitFor();
    await checkState(s, 'question');
    // Three states checked in full (axe, borders, reflow at 100 % and 200 %): each takes seconds on a loaded machine.
  }, 180_000);

  test('a saved import with filters and sort says, in its item, which rows it keeps', async () => {
    const a = addin(svc.url);
    const id = saveImport(a.emu, {
      sheetName: 'Big tickets',
      fields: ['id', 'firm'],
      filters: [{ field: 'ticketSize', op: 'atLeast', value: '1000' }],
      sort: [{ field: 'firm', descending: true }],
    });
    const listed = call(a.emu, 'listImports', []);
    const shaped = listed.ok ? listed.imports.find((i) => i.id === id)?.shaped : undefined;
    expect(shaped).toMatch(/ticketSize/);
    const s = await sidebarFor(a);
    const item = s.page
      .getByRole('list', { name: 'Saved imports' })
      .getByRole('listitem')
      .filter({ has: s.page.getByRole('heading', { name: 'Big tickets' }) });
    expect(await item.locator('dt:has-text("Rows kept") + dd').textContent()).toBe(shaped);
    await checkState(s, 'filtered');
  });

  test('sort by fit chosen by keyboard: the fund fields open; a saved import sorted by fit says so', async () => {
    const a = addin(svc.url);
    saveImport(a.emu, { sheetName: 'Targets', fields: ['id', 'fitScore'], fit: { fund: 'vf_0005', top: 50 } });
    const s = await sidebarFor(a);
    await s.page.locator('#sort-field-1').focus();
    await press(s.page, 'ArrowDown', 'Tab');
    expect(await focused(s.page)).toEqual({ role: 'textbox', name: 'Venture fund id' });
    await s.page.keyboard.type('vf_0005');
    await s.page.locator('dd:has-text("sorted by fit to fund vf_0005, the best 50")').waitFor();
    await checkState(s, 'fit');
  });

  test("an import's settings being edited: history and alert on; another editor's alert locked with its reason; a refusal shown", async () => {
    const a = addin(svc.url);
    const mine = saveImport(a.emu, { sheetName: 'Mine', fields: ['id', 'firm'], history: { keep: 3 } });
    expect(call(a.emu, 'saveImport', [{ id: mine, alert: { on: ['added'], fields: ['firm'] } }]).ok).toBe(true);
    const theirs = saveImport(a.emu, { sheetName: 'Theirs', fields: ['id', 'firm'] });
    const byEditor = a.emu.run('saveImport', [{ id: theirs, alert: { on: ['removed'] } }], {
      kind: 'sidebar',
      user: 'editor@example.com',
    });
    expect(byEditor.value).toMatchObject({ ok: true });
    const s = await sidebarFor(a);
    const items = s.page.getByRole('list', { name: 'Saved imports' });
    await items.getByRole('button', { name: 'Edit settings: import into Mine' }).click();
    expect(await s.page.getByRole('checkbox', { name: 'added', exact: true }).isChecked()).toBe(true);
    await checkState(s, 'editing');
    await items.getByRole('button', { name: 'Edit settings: import into Theirs' }).click();
    await s.page.locator('#alert-note:not([hidden])').waitFor();
    await checkState(s, 'editing-locked');
    await s.page.getByRole('checkbox', { name: "Keep each run's rows in a history sheet" }).check();
    await s.page.locator('#history-keep').fill('500');
    await s.page.getByRole('button', { name: 'Save without running' }).click();
    expect(await focused(s.page)).toEqual({ role: 'textbox', name: 'Runs kept (1 to 100)' });
    expect(await s.page.locator('#history-keep-error').textContent()).toBe(
      'History keeps 1 to 100 runs: type a whole number.',
    );
    await checkState(s, 'editing-refused');
  });

  test('import failed: the progress line says where it stopped, the message why, each once; the saved import shows its status once', async () => {
    const gone = await startService(['--partners', '5']);
    await gone.stop();
    const s = await sidebarFor(addin(gone.url));
    await s.page.locator('#import').click();
    await s.page.locator('#import-message.error').waitFor({ timeout: 60_000 });
    expect(await s.page.locator('#progress-text').textContent()).toBe('Failed before the first page.');
    const message = (await s.page.locator('#import-message').textContent()) ?? '';
    expect(message).toMatch(
      /^Could not reach the data service: .+ The sheet "Limited partners" keeps its previous data\.$/,
    );
    const status = s.page.locator('#imports dt:has-text("Status") + dd:has-text("failed")');
    await status.waitFor();
    expect(await status.textContent()).toBe(`failed: ${message}`);
    await checkState(s, 'failed');
  });
});

describe('every task by keyboard: focus stays on, or moves predictably to, the control acted on', () => {
  test('save a key, answering the address question by keyboard; test the connection; remove the key', async () => {
    const a = addin(svc.url, null);
    const s = await sidebarFor(a);
    const p = s.page;
    expect(await focused(p)).toEqual({ role: 'textbox', name: 'API key' });
    await p.keyboard.type(DEMO_KEY);
    await press(p, 'Enter');
    await p.getByRole('group', { name: `Send my key to ${host}?` }).waitFor();
    expect(await focused(p)).toEqual({ role: 'button', name: 'Save it without sending' });
    await press(p, 'Shift+Tab');
    expect(await focused(p)).toEqual({ role: 'button', name: `Send my key to ${host}` });
    await clearAnnounced(p);
    await press(p, 'Enter');
    await p.locator('#key-message.ok').waitFor();
    expect(await focused(p)).toEqual({ role: 'button', name: 'Save key' });
    expect(await announced(p)).toContain(`Key saved and accepted by ${host}.`);
    await press(p, 'Tab');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Test connection' });
    await press(p, 'Enter');
    await p.locator('#key-message:has-text("Connected to")').waitFor();
    expect(await focused(p)).toEqual({ role: 'button', name: 'Test connection' });
    expect((await announced(p)).at(-1)).toMatch(new RegExp(`^Connected to ${host}: \\d+ active limited partners\\.$`));
    await press(p, 'Tab', 'Enter');
    await p.getByRole('group', { name: 'Remove your saved API key?' }).waitFor();
    expect(await focused(p)).toEqual({ role: 'button', name: 'Keep it' });
    await press(p, 'Escape');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Remove key' });
    await press(p, 'Enter', 'Shift+Tab', 'Enter');
    await p.locator('#key-status:has-text("No API key saved yet.")').waitFor();
    expect(await focused(p)).toEqual({ role: 'textbox', name: 'API key' });
    expect(await announced(p)).toContain('Key removed.');
  });

  test('Cancel by keyboard: once the run ends, focus goes back to Import', async () => {
    const s = await sidebarFor(addin(svc.url));
    const p = s.page;
    s.hold('startImport');
    await tabTo(p, 'Import');
    await press(p, 'Enter');
    await s.held();
    await press(p, 'Tab');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Cancel the import' });
    await press(p, 'Enter');
    expect((await announced(p)).at(-1)).toBe('Cancelling…');
    s.release();
    await p.locator('#cancel-import[hidden]').waitFor({ state: 'attached' });
    expect(await focused(p)).toEqual({ role: 'button', name: 'Import' });
  });

  test('settings: an emptied cache lifetime is refused at the field, then saved; focus stays on Save settings', async () => {
    const a = addin(svc.url);
    const s = await sidebarFor(a);
    const p = s.page;
    await tabTo(p, 'Cache lifetime (seconds)');
    await press(p, 'Control+a', 'Delete', 'Tab');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Save settings' });
    await clearAnnounced(p);
    await press(p, 'Enter');
    expect(await focused(p)).toEqual({ role: 'textbox', name: 'Cache lifetime (seconds)' });
    expect(await announced(p)).toContain('Nothing was saved: correct the fields marked above.');
    await p.keyboard.type('600');
    await press(p, 'Tab', 'Enter');
    await p.locator('#message:has-text("Settings saved.")').waitFor();
    expect(await focused(p)).toEqual({ role: 'button', name: 'Save settings' });
    expect(await p.locator('#cache-ttl').getAttribute('aria-invalid')).toBeNull();
    expect(s.calls.filter((c) => c.name === 'saveSettings').map((c) => c.args)).toEqual([[{ ttlSeconds: 600 }]]);
  });

  test('columns: move down and up, remove, add; focus stays on the button pressed and each change is announced', async () => {
    const s = await sidebarFor(addin(svc.url));
    const p = s.page;
    await p.getByRole('list', { name: 'Columns, in order' }).waitFor();
    await tabTo(p, 'Move fullName down');
    await press(p, 'Enter');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Move fullName down' });
    expect(await p.locator('#column-list li:nth-child(3) .column-name').textContent()).toBe('fullName');
    await press(p, 'Shift+Tab', 'Enter');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Move fullName up' });
    expect(await press(p, 'Enter').then(() => focused(p))).toEqual({ role: 'button', name: 'Move fullName down' });
    expect(await announced(p)).toEqual([
      'fullName moved down: 3 of 12.',
      'fullName moved up: 2 of 12.',
      'fullName moved up: 1 of 12.',
    ]);
    await tabTo(p, 'Remove firm');
    await press(p, 'Enter');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Remove currentInvestingPosition' });
    expect((await announced(p)).at(-1)).toBe('firm removed: 11 columns.');
    await tabTo(p, 'Add a column');
    await press(p, 'Tab', 'Enter');
    expect(await focused(p)).toEqual({ role: 'combobox', name: 'Add a column' });
    expect((await announced(p)).at(-1)).toMatch(/^\w+ added: 12 of 12\.$/);
  });

  test('a schedule is chosen with arrows and saved once by its button; Run now and Delete keep focus predictable', async () => {
    const a = addin(svc.url);
    const s = await sidebarFor(a);
    const p = s.page;
    await tabTo(p, 'Import');
    await press(p, 'Enter');
    await p.locator('#import-message.ok').waitFor({ timeout: 60_000 });
    expect(await focused(p)).toEqual({ role: 'button', name: 'Import' });
    expect(await announced(p)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^page (\d+) of \1 · rows (\d+) of \2$/)]),
    );
    await tabTo(p, 'Repeat');
    await press(p, 'ArrowDown', 'ArrowDown');
    expect(await p.getByRole('combobox', { name: 'Repeat' }).inputValue()).toBe('day');
    expect(s.calls.map((c) => c.name)).not.toContain('scheduleImport');
    await tabTo(p, 'Save schedule: import into Limited partners');
    await press(p, 'Enter');
    await p.locator('#import-message:has-text("Schedule saved")').waitFor();
    expect(s.calls.filter((c) => c.name === 'scheduleImport').map((c) => c.args[1])).toEqual([
      { every: 'day', atHour: 6 },
    ]);
    expect(await focused(p)).toEqual({ role: 'button', name: 'Save schedule: import into Limited partners' });
    await tabTo(p, 'Run now: import into Limited partners', true);
    await press(p, 'Enter');
    await p.locator('#import-message.ok:has-text("into")').waitFor({ timeout: 60_000 });
    await p.waitForFunction(() => !document.querySelector('#import[aria-disabled]'));
    expect(await focused(p)).toEqual({ role: 'button', name: 'Run now: import into Limited partners' });
    await press(p, 'Tab');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Edit settings: import into Limited partners' });
    await press(p, 'Tab');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Delete: import into Limited partners' });
    await press(p, 'Enter');
    expect(await focused(p)).toEqual({ role: 'button', name: 'Keep it' });
    await press(p, 'Shift+Tab', 'Enter');
    await p.locator('#no-imports:not([hidden])').waitFor();
    expect(await focused(p)).toEqual({ role: 'heading', name: 'Saved imports' });
    expect((await announced(p)).at(-1)).toBe('Deleted the import into "Limited partners" (the sheet stays).');
    expect(call(a.emu, 'listImports', [])).toMatchObject({ ok: true, imports: [] });
  });
});
