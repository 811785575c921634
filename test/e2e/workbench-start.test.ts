/**
 * The workbench starts whatever it finds and cleans up after itself (real Chromium where there is a
 * page): a state file saved by an older workbench (rows as null) loads, an unreadable one is set
 * aside with a message, a failed start leaves no process behind, a POST without the page's token
 * is refused, an import shows its state the moment it is asked for, and the simulated clock is
 * never behind the wall clock.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Workbook } from '../../dev/emulator/workbook';
import { launch, shot } from '../helpers/browser';
import {
  cell,
  cellIs,
  DEMO_KEY,
  goTo,
  importWithSidebar,
  type RunningWorkbench,
  startWorkbench,
  typeInto,
} from '../helpers/workbench';

const ROOT = join(__dirname, '../..');
const OWNER = 'owner@example.com';
let browser: Browser;
let page: Page;
const running: RunningWorkbench[] = [];

/** A state folder holding the given state.json text. */
function stateDir(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'workbench-state-'));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'state.json'), text);
  return dir;
}

/** A state file as the workbench saves it; `values` replaces Sheet1's rows (as an older workbench wrote them). */
function savedState(opts: { values?: unknown[]; clock?: number; key?: boolean }): string {
  const workbook = new Workbook('workbench', 'Investor Data workbench').toJSON() as {
    sheets: Array<{ values: unknown[] }>;
  };
  if (opts.values) workbook.sheets[0].values = opts.values;
  const properties = opts.key ? [[`user:${OWNER}`, [['INVESTOR_DATA_API_KEY', DEMO_KEY]]]] : [];
  return JSON.stringify({
    workbook,
    properties,
    triggers: { triggers: [], nextId: 0 },
    owners: [],
    clock: opts.clock ?? Date.now(),
  });
}

async function start(args: string[], dir?: string): Promise<RunningWorkbench> {
  const wb = await startWorkbench(['--partners', '300', ...args], dir);
  running.push(wb);
  return wb;
}

beforeAll(async () => {
  browser = await launch();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const wb of running) await wb.stop();
});

describe('saved state always loads', () => {
  test('a state file with empty rows saved as null (by an older workbench) loads, and the value below them shows', async () => {
    const dir = stateDir(savedState({ values: [null, null, null, null, [null, 'hello']] }));
    const wb = await start([], dir);
    await page.goto(wb.url);
    await cellIs(page, 'B5', 'hello');
    expect(await cell(page, 'A5').textContent()).toBe('');
    await typeInto(page, 'A1', 'again');
    await cellIs(page, 'A1', 'again');
    await wb.stop();
    const restarted = await start([], dir);
    await page.goto(restarted.url);
    await cellIs(page, 'B5', 'hello');
    await cellIs(page, 'A1', 'again');
  }, 60_000);

  test('an unreadable state file is set aside with a message and never blocks the start', async () => {
    const dir = stateDir('{"workbook": {"sheets": [tru');
    const wb = await start([], dir);
    await page.goto(wb.url);
    const notice = page.locator('#notice');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /The saved workbench state could not be read \(.+\); it was set aside as \S+state\.json\.unreadable-\S+ and the workbench starts with an empty workbook/,
    );
    const aside = readdirSync(dir).find((f) => f.startsWith('state.json.unreadable-')) as string;
    expect(readFileSync(join(dir, aside), 'utf8')).toBe('{"workbook": {"sheets": [tru');
    await typeInto(page, 'A1', 'works');
    await cellIs(page, 'A1', 'works');
    expect(existsSync(join(dir, 'state.json'))).toBe(true);
  }, 60_000);
});

describe('processes', () => {
  test('a failed start (port taken) exits with the reason and leaves no process behind (not the embedded service)', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    // Its own process group, so whatever it started can be found after it is gone.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'dev/workbench/cli.ts'),
        '--port',
        String(port),
        '--partners',
        '300',
        '--state-dir',
        mkdtempSync(join(tmpdir(), 'workbench-')),
      ],
      { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    blocker.close();
    // Zombies (<defunct>) have ended already; anything else still in the group is a leak.
    const group = () =>
      execFileSync('ps', ['-eo', 'pgid=,pid=,args='], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => l.trim().split(/\s+/)[0] === String(child.pid) && !l.includes('<defunct>'));
    // A helper the CLI's loader started (esbuild's service) ends when its pipe to the CLI closes, a moment after
    // the CLI on a busy machine: wait for the group to empty; a process still there after 10 s is a leak.
    const until = Date.now() + 10_000;
    let left = group();
    while (left.length && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      left = group();
    }
    if (left.length) process.kill(-(child.pid as number), 'SIGKILL');
    expect(code).toBe(1);
    expect(output).toContain(`Port ${port} is in use`);
    expect(left).toEqual([]);
  }, 60_000);
});

describe('the page', () => {
  test('a POST without the token the page was served with is refused (a page of another site cannot save a key)', async () => {
    const wb = await start([]);
    await page.goto(wb.url);
    const token = await page.locator('meta[name="workbench-token"]').getAttribute('content');
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    const call = (headers: Record<string, string>) =>
      fetch(`${wb.url}/api/run`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', ...headers },
        body: JSON.stringify({ name: 'saveApiKey', args: ['stolen-key-12345678'] }),
      });
    const attempts: Array<Record<string, string>> = [
      {},
      { 'x-workbench-token': 'f'.repeat(48) },
      { origin: 'http://evil.example' },
    ];
    for (const headers of attempts) {
      const res = await call(headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toMatch(/^Refused/);
    }
    const state = await fetch(`${wb.url}/api/run`, {
      method: 'POST',
      headers: { 'x-workbench-token': token as string },
      body: JSON.stringify({ name: 'getSidebarState', args: [] }),
    });
    expect(state.status).toBe(200);
    expect(JSON.stringify(await state.json())).not.toContain('5678');
    expect(
      (
        await fetch(`${wb.url}/api/cell`, {
          method: 'POST',
          body: JSON.stringify({ sheet: 'Sheet1', a1: 'A1', input: 'x' }),
        })
      ).status,
    ).toBe(403);
    // A page of another site whose name now resolves to this machine (DNS rebinding) is refused too.
    const rebound = await new Promise<number | undefined>((resolve, reject) =>
      get(`${wb.url}/`, { headers: { host: 'evil.example' } }, (res) => resolve(res.resume().statusCode)).on(
        'error',
        reject,
      ),
    );
    expect(rebound).toBe(403);
  }, 60_000);

  test('no other site may frame the page (the sidebar only by the page itself); a POST body is bounded and its fields checked, with a clear 400', async () => {
    const wb = await start([]);
    const home = await fetch(`${wb.url}/`);
    const token = /name="workbench-token" content="([0-9a-f]+)"/.exec(await home.text())?.[1] as string;
    expect(home.headers.get('content-security-policy')).toBe("frame-ancestors 'none'");
    expect(home.headers.get('x-frame-options')).toBe('DENY');
    for (const path of ['/api/state', '/app.js'])
      expect((await fetch(`${wb.url}${path}`)).headers.get('x-frame-options')).toBe('DENY');
    const sidebar = await fetch(`${wb.url}/sidebar`);
    expect(sidebar.headers.get('content-security-policy')).toBe("frame-ancestors 'self'");
    expect(sidebar.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const post = (path: string, body: string) =>
      fetch(`${wb.url}${path}`, { method: 'POST', headers: { 'x-workbench-token': token }, body });
    const refused = async (path: string, body: string) => {
      const res = await post(path, body);
      return [res.status, ((await res.json()) as { error: string }).error];
    };
    expect(await refused('/api/run', JSON.stringify({ name: 'getSidebarState', args: 'x' }))).toEqual([
      400,
      '"args" must be a list of the call\'s arguments.',
    ]);
    expect(await refused('/api/run', JSON.stringify({ name: 7, args: [] }))).toEqual([400, '"name" must be text.']);
    expect(await refused('/api/run', '{not json')).toEqual([400, 'The request body is not JSON.']);
    expect(await refused('/api/run', '[1]')).toEqual([400, 'The request body must be a JSON object.']);
    expect(await refused('/api/cell', JSON.stringify({ sheet: 'Sheet1', a1: ['A1'], input: 'x' }))).toEqual([
      400,
      '"a1" must be text.',
    ]);
    expect(
      await refused('/api/cell', JSON.stringify({ sheet: 'Sheet1', a1: 'A1', input: 'x'.repeat(1024 * 1024) })),
    ).toEqual([413, 'Request body over 1 MB.']);
    // Still serving, and the refused cell was not written.
    const ok = await post('/api/run', JSON.stringify({ name: 'getSidebarState', args: [] }));
    expect(ok.status).toBe(200);
    const state = (await (await fetch(`${wb.url}/api/state`)).json()) as { cells: string[][] };
    expect(state.cells[0][0]).toBe('');
  }, 60_000);

  test('the state file holding the key is readable by its owner only; adding a sheet whose name exists says so', async () => {
    const wb = await start([], stateDir(savedState({ key: true })));
    await page.goto(wb.url);
    await typeInto(page, 'A1', 'saved');
    await cellIs(page, 'A1', 'saved');
    expect(statSync(join(wb.stateDir, 'state.json')).mode & 0o777).toBe(0o600);
    page.once('dialog', (d) => void d.accept('Sheet1'));
    await page.click('#add-sheet');
    await page.locator('#cell-error:has-text(\'A sheet named "Sheet1" already exists.\')').waitFor();
    expect(await page.locator('.tab').count()).toBe(1);
  }, 60_000);

  test('the triggers panel shows the clock and each next run; advancing the clock fires a due schedule, and says what ran', async () => {
    const wb = await start([], stateDir(savedState({ key: true })));
    const token = /name="workbench-token" content="([0-9a-f]+)"/.exec(
      await (await fetch(`${wb.url}/`)).text(),
    )?.[1] as string;
    const run = async (name: string, args: unknown[]) =>
      (
        (await (
          await fetch(`${wb.url}/api/run`, {
            method: 'POST',
            headers: { 'x-workbench-token': token },
            body: JSON.stringify({ name, args }),
          })
        ).json()) as { value: { import: { id: string } } }
      ).value;
    const saved = await run('saveImport', [{ sheetName: 'Hourly', fields: ['id', 'fullName'] }]);
    await run('scheduleImport', [saved.import.id, { every: 'hours', hours: 1 }]);
    await page.goto(wb.url);
    await page.click('#triggers-button');
    await page.locator('#trigger-list td:has-text("runScheduledImports")').waitFor();
    expect(await page.locator('#trigger-list').textContent()).toMatch(/next \d{4}-\d\d-\d\d \d\d:\d\d/);
    const clock = async () => Date.parse(`${(await page.locator('#clock-time').textContent())?.replace(' ', 'T')}:00Z`);
    const before = await clock();
    expect(await page.locator('.tab:has-text("Hourly")').count()).toBe(0);
    await page.click('#advance-hour');
    await page.locator('#trigger-status:has-text("runScheduledImports ran")').waitFor({ timeout: 60_000 });
    await page.locator('.tab:has-text("Hourly")').waitFor();
    await page.waitForFunction(
      (b) =>
        Date.parse(`${document.getElementById('clock-time')?.textContent?.replace(' ', 'T')}:00Z`) >= b + 3_600_000,
      before,
    );
    await page.locator('#trigger-list button:has-text("Run now")').first().click();
    await page.locator('#trigger-status:has-text("ran.")').waitFor({ timeout: 60_000 });
    expect(await page.locator('#trigger-status').textContent()).toMatch(
      /^Clock at \d{4}-\d\d-\d\d \d\d:\d\d UTC: runScheduledImports ran\.$/,
    );
  }, 120_000);

  test('a long import scrolls to its last row; the header row and the row numbers stay in view over the data', async () => {
    const wb = await start(['--partners', '2600']);
    await page.goto(wb.url);
    await importWithSidebar(page);
    await page.locator('.tab.active:has-text("Limited partners")').waitFor();
    const total = Number(
      /Imported ([\d,]+)/
        .exec((await page.frameLocator('#sidebar-frame').locator('#import-message').textContent()) ?? '')?.[1]
        .replace(/,/g, ''),
    );
    expect(total).toBeGreaterThan(2000);
    // The last row, past the 2,000 the grid used to stop at: by the name box, then by scrolling.
    await goTo(page, `A${total + 1}`);
    await cellIs(page, `A${total + 1}`, /^lp/);
    await goTo(page, 'A1');
    await page.locator('#grid-wrap').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await cellIs(page, `A${total + 1}`, /^lp/);
    // Scrolled down and right: the frozen header row sits under the column letters, the row numbers over the cells.
    await page.locator('#grid-wrap').evaluate((el) => el.scrollBy(400, -3000));
    const wrap = (await page.locator('#grid-wrap').boundingBox()) as { x: number; y: number };
    // The rows now in view are fetched and drawn (until then a spacer stands for them).
    await page.waitForFunction(
      ([x, y]) => !!document.elementFromPoint(x, y)?.closest('td[data-cell]'),
      [wrap.x + 200, wrap.y + 22 * 5 + 11],
    );
    const header = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest('tr')?.className,
      [wrap.x + 200, wrap.y + 22 + 11],
    );
    expect(header).toBe('frozen');
    const under = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.tagName,
      [wrap.x + 15, wrap.y + 22 * 5 + 11],
    );
    expect(under).toBe('TH');
    await page.screenshot({ path: shot('workbench-long-scrolled') });
  }, 180_000);

  test('Investor Data ▸ Diagnostics shows its report in a dialog over the page, which closes', async () => {
    const wb = await start([], stateDir(savedState({ key: true })));
    await page.goto(wb.url);
    await page.click('#menu-investor-data');
    await page.click('text=Diagnostics');
    await page.locator('#dialog:not([hidden]) #dialog-title:has-text("Investor Data diagnostics")').waitFor();
    const report = page.frameLocator('#dialog-frame').locator('#report');
    await report.waitFor();
    const text = await report.inputValue();
    expect(text).toMatch(/^OK +API key: saved/m);
    expect(text).toMatch(/Summary: \d+ ok, 0 warnings, 0 failed/);
    expect(text).not.toContain(DEMO_KEY);
    await page.click('#close-dialog');
    await page.locator('#dialog').waitFor({ state: 'hidden' });
  }, 60_000);

  test('Import shows "starting…", Cancel and a disabled button at once, progress once; the run log has wall-clock times although the saved clock was 2 hours behind', async () => {
    const wb = await start(['--latency', '200'], stateDir(savedState({ key: true, clock: Date.now() - 2 * 3600_000 })));
    await page.goto(wb.url);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/run', async (route) => {
      if (String(route.request().postData()).includes('"startImport"')) await held;
      await route.continue();
    });
    await page.click('#menu-investor-data');
    await page.click('text=Open sidebar');
    const sidebar = page.frameLocator('#sidebar-frame');
    await sidebar.locator('#key-status:has-text("ending …6789")').waitFor();
    const frame = page.frames().find((f) => f.url().endsWith('/sidebar'));
    // Every text the message line takes during the run.
    await frame?.evaluate(() => {
      const m = document.getElementById('import-message') as HTMLElement;
      (window as unknown as { said: string[] }).said = [];
      new MutationObserver(() => (window as unknown as { said: string[] }).said.push(m.textContent ?? '')).observe(m, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    const t0 = Date.now();
    await sidebar.locator('#import').click();
    await sidebar.locator('#progress-text:has-text("starting…")').waitFor();
    expect(await sidebar.locator('#import').isDisabled()).toBe(true);
    expect(await sidebar.locator('#cancel-import').isVisible()).toBe(true);
    release();
    await sidebar.locator('#import-message.ok').waitFor({ timeout: 90_000 });
    await page.unroute('**/api/run');
    expect(await sidebar.locator('#progress-text').textContent()).toMatch(/^page \d+ of \d+ · rows \d+ of \d+$/);
    const said = (await frame?.evaluate(() => (window as unknown as { said: string[] }).said)) ?? [];
    expect(said.filter((t) => /page \d+ of/.test(t))).toEqual([]);
    await page.locator('.tab:has-text("Investor Data log")').click();
    await page.locator('.tab.active:has-text("Investor Data log")').waitFor();
    await cellIs(page, 'A2', /^\d{4}-\d\d-\d\d \d\d:\d\d$/);
    const logged = Date.parse(`${((await cell(page, 'A2').textContent()) as string).replace(' ', 'T')}:00Z`);
    expect(logged).toBeGreaterThanOrEqual(Math.floor(t0 / 60_000) * 60_000);
    // Ahead only by what executions cost in simulated time (charges, simulated waits).
    expect(logged).toBeLessThanOrEqual(Date.now() + 60_000);
  }, 120_000);
});

/** Processes of a process group still running (zombies have ended already). */
const groupLeft = (pgid: number) =>
  execFileSync('ps', ['-eo', 'pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter(([g, stat]) => g === String(pgid) && !stat.startsWith('Z'))
    .map((p) => p.slice(2).join(' '));

describe('a signal to npm alone (an IDE stop button, a supervisor) stops every process npm started', () => {
  test.each([
    [
      'npm start',
      ['start', '--', '--port', '0', '--partners', '300', '--state-dir', '<tmp>'],
      /Investor Data workbench: (\S+)/,
    ],
    ['npm run service', ['run', 'service', '--', '--port', '0', '--partners', '300'], /SERVICE_URL=(\S+)/],
  ])(
    '%s, then SIGTERM to the npm process only',
    async (_, args, ready) => {
      const argv = (args as string[]).map((a) => (a === '<tmp>' ? mkdtempSync(join(tmpdir(), 'workbench-')) : a));
      // Its own process group, so everything npm started can be found after npm is gone.
      const npm = spawn('npm', argv, { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const pgid = npm.pid as number;
      try {
        let output = '';
        const url = await new Promise<string>((resolve, reject) => {
          const onData = (d: Buffer) => {
            output += d.toString();
            const m = (ready as RegExp).exec(output);
            if (m) resolve(m[1]);
          };
          npm.stdout.on('data', onData);
          npm.stderr.on('data', onData);
          npm.once('exit', (code) => reject(new Error(`npm exited with ${code}: ${output}`)));
        });
        expect(groupLeft(pgid).length).toBeGreaterThanOrEqual(3);
        npm.kill('SIGTERM');
        const deadline = Date.now() + 15_000;
        while (groupLeft(pgid).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(groupLeft(pgid)).toEqual([]);
        await expect(fetch(url)).rejects.toThrow();
      } finally {
        if (groupLeft(pgid).length) process.kill(-pgid, 'SIGKILL');
      }
    },
    90_000,
  );
});

describe('a workbench killed outright', () => {
  test('SIGKILL of the workbench (it cannot clean up) still ends its embedded service', async () => {
    const wb = await startWorkbench(['--partners', '300']);
    const children = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([, ppid, ...args]) => ppid === String(wb.pid) && args.join(' ').includes('dev/service/cli.ts'));
    expect(children).toHaveLength(1);
    const servicePid = Number(children[0][0]);
    const alive = () => {
      try {
        process.kill(servicePid, 0);
        return !execFileSync('ps', ['-o', 'stat=', '-p', String(servicePid)], { encoding: 'utf8' }).includes('Z');
      } catch {
        return false;
      }
    };
    expect(alive()).toBe(true);
    wb.kill();
    const deadline = Date.now() + 15_000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(alive()).toBe(false);
  }, 60_000);
});
