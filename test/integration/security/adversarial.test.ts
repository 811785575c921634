import type { Emulator } from '../../../dev/emulator/runtime';
import { addin, everythingStored } from '../../helpers/addin';
import { DEMO_KEY, type RunningService, startService } from '../../helpers/service';

/** Forty-odd values nobody should pass, used in every argument position. */
const BAD: unknown[] = [
  '',
  ' ',
  '\t\n',
  'a&apiKey=stolen',
  'a?limit=1',
  'a#frag',
  'a/b',
  '../..',
  '..%2F..',
  '%00',
  'ü',
  '😀',
  '名前',
  '<script>x</script>',
  '=1+1',
  '+1',
  '-1',
  '@x',
  "'",
  '"',
  'x'.repeat(5000),
  'lp_0000a,lp_0000b',
  0,
  -1,
  1.5,
  1e21,
  -0,
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  new Date(0),
  '#N/A',
  '#REF!',
  [[]],
  [['']],
  [['', '']],
  [
    ['a', 'b'],
    ['c', 'd'],
  ],
  [[true]],
  [[new Date(1)]],
  null,
  undefined,
  Array.from({ length: 6000 }, (_, i) => [`id${i}`]),
  'https://evil.example/x',
  'javascript:alert(1)',
];

let svc: RunningService;
beforeAll(async () => {
  svc = await startService(['--partners', '200', '--funds', '20']);
});
afterAll(() => svc.stop());

const clear = (message: string): boolean =>
  message.length > 5 &&
  message.length < 1200 &&
  !/\n\s+at |TypeError|ReferenceError|undefined is not|\[object |Cannot read prop/.test(message) &&
  !message.includes(DEMO_KEY);

interface Seen {
  op: string;
  query: Record<string, string[]>;
}

/** Every request the service saw asks for exactly the id the analyst gave, with one key. */
function requestsAsIntended(recent: Seen[], intendedIds: Set<string>): string | undefined {
  for (const r of recent) {
    if (r.query.apiKeyCount?.[0] !== '1') return `request with ${r.query.apiKeyCount} keys`;
    const id = r.query.limitedPartnerId?.[0] ?? r.query.ventureFundId?.[0];
    if (id !== undefined && !intendedIds.has(id)) return `request for unintended id ${JSON.stringify(id).slice(0, 80)}`;
    for (const [k, v] of Object.entries(r.query)) if (v.length > 1) return `parameter ${k} sent ${v.length} times`;
  }
  return undefined;
}

function intended(args: unknown[]): Set<string> {
  const out = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.trim()) out.add(v.trim());
    if (typeof v === 'number') out.add(String(v));
    if (Array.isArray(v)) v.forEach(add);
  };
  add(args[0]);
  return out;
}

const FUNCTIONS: Array<[string, number]> = [
  ['LP_GET', 3],
  ['LP_FIRMS', 3],
  ['LP_LABELS', 3],
  ['FUND_GET', 3],
  ['FUND_LASTSIZE', 2],
  ['LP_ACTIVE', 4],
  ['FUND_INDUSTRIES', 4],
  ['LP_FIELDS', 1],
  ['FUND_FIELDS', 1],
  ['LP_FIND', 4],
  ['LP_FILTER', 5],
];
const GOOD_FIRST: Record<string, unknown> = {
  LP_GET: 'lp_0000a',
  LP_FIRMS: 'lp_0000a',
  LP_LABELS: 'lp_0000a',
  FUND_GET: 'vf_0003',
  FUND_LASTSIZE: 'vf_0003',
  FUND_INDUSTRIES: 'vf_0003',
  LP_ACTIVE: 1,
  LP_FIND: 'an',
  LP_FILTER: [['firm', 'contains', 'a']],
};

describe('adversarial inputs to every custom function', () => {
  test.each(FUNCTIONS)(
    '%s: every bad value in every argument gives a value or a clear message, and no unintended request',
    async (name, arity) => {
      const a = addin(svc.url);
      const problems: string[] = [];
      let cases = 0;
      for (let position = 0; position < arity; position++) {
        for (const bad of BAD) {
          const args: unknown[] = Array.from({ length: arity }, (_, i) =>
            i === 0 && GOOD_FIRST[name] !== undefined ? GOOD_FIRST[name] : undefined,
          );
          if (name === 'LP_ACTIVE' && position !== 1) args[1] = 5;
          args[position] = bad;
          await svc.resetStats();
          const cell = a.cell(name, ...args);
          cases++;
          const label = `${name} arg ${position} = ${JSON.stringify(bad)?.slice(0, 40)}`;
          if (cell.error !== undefined && !clear(cell.error))
            problems.push(`${label}: unclear error ${JSON.stringify(cell.error).slice(0, 200)}`);
          if (cell.error === undefined && cell.value === undefined) problems.push(`${label}: no value and no error`);
          const texts = Array.isArray(cell.value) ? (cell.value as unknown[][]).flat() : [cell.value];
          for (const t of texts)
            if (typeof t === 'string' && t.startsWith('Error: ') && !clear(t))
              problems.push(`${label}: unclear row ${t.slice(0, 200)}`);
          const wrong = requestsAsIntended((await svc.stats()).recent, intended(args));
          if (wrong && position === 0) problems.push(`${label}: ${wrong}`);
          if (wrong && position > 0 && !['LP_ACTIVE', 'FUND_INDUSTRIES'].includes(name))
            problems.push(`${label}: ${wrong}`);
        }
      }
      expect(cases).toBeGreaterThanOrEqual(40);
      expect(problems).toEqual([]);
      expect(everythingStored(a.emu)).not.toContain(DEMO_KEY);
    },
    120_000,
  );
});

type Answer = { ok: true } | { ok: false; code: string; message: string };

function endpoint(emu: Emulator, name: string, args: unknown[]): Answer | { thrown: string } {
  const r = emu.run<Answer>(name, args, { kind: 'sidebar' });
  return r.error !== undefined ? { thrown: r.error } : (r.value as Answer);
}

const ENDPOINTS: Array<[string, number]> = [
  ['saveApiKey', 2],
  ['sendKeyTo', 1],
  ['saveSettings', 1],
  ['saveImport', 1],
  ['deleteImport', 1],
  ['scheduleImport', 2],
  ['startImport', 1],
  ['continueImport', 1],
  ['importStatus', 1],
  ['cancelImport', 1],
  ['countMatches', 1],
  ['filterValues', 1],
];

describe('adversarial inputs to every sidebar endpoint', () => {
  test.each(ENDPOINTS)('%s: bad values are refused with a clear message; settings stay valid', (name, arity) => {
    const a = addin(svc.url);
    const saved = a.emu.run<{ ok: boolean; import: { id: string } }>(
      'saveImport',
      [{ sheetName: 'Target', fields: ['id'] }],
      { kind: 'sidebar' },
    ).value;
    const problems: string[] = [];
    let cases = 0;
    for (let position = 0; position < arity; position++) {
      for (const bad of BAD) {
        const args: unknown[] = [saved?.import.id, { every: 'hours', hours: 1 }].slice(0, arity);
        args[position] = bad;
        const r = endpoint(a.emu, name, args);
        cases++;
        const label = `${name} arg ${position} = ${JSON.stringify(bad)?.slice(0, 40)}`;
        if ('thrown' in r) problems.push(`${label}: threw ${r.thrown.slice(0, 200)}`);
        else if (!r.ok && !clear(r.message)) problems.push(`${label}: unclear ${r.message.slice(0, 200)}`);
      }
    }
    const settings = a.emu.run<{ ok: true; baseUrl: string; ttlSeconds: number }>('getSidebarState', [], {
      kind: 'sidebar',
    }).value;
    expect(
      settings?.baseUrl === svc.url ||
        /^https:\/\//.test(settings?.baseUrl ?? '') ||
        /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])/.test(settings?.baseUrl ?? ''),
    ).toBe(true);
    expect(settings?.ttlSeconds).toBeGreaterThanOrEqual(0);
    expect(cases).toBeGreaterThanOrEqual(40);
    expect(problems).toEqual([]);
  });

  test('service addresses: https anywhere, http only on the local machine', () => {
    const a = addin(svc.url);
    const save = (url: string) =>
      a.emu.run<Answer>('saveSettings', [{ baseUrl: url }], { kind: 'sidebar' }).value as Answer;
    for (const ok of [
      'https://data.example.com',
      'https://data.example.com/v1/',
      'http://localhost:8787',
      'http://127.0.0.1:1234',
      'http://[::1]:80',
    ])
      expect(save(ok).ok).toBe(true);
    for (const bad of [
      'http://data.example.com',
      'ftp://x',
      'javascript:alert(1)',
      'https://',
      'https://a b.com',
      'https://user:pw@x.com',
      'file:///etc/passwd',
      'https://x.com?apiKey=1',
    ]) {
      const r = save(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.code).toBe('BAD_INPUT');
    }
  });
});

describe('secrets and isolation', () => {
  test('the key is never in what the add-in stores, logs, returns to the sidebar or puts in HTML', () => {
    const a = addin(svc.url);
    a.cell('LP_GET', [['lp_0000a'], ['nope']], 'id');
    a.cell('LP_GET', 'x'.repeat(3000));
    a.emu.run('saveImport', [{ sheetName: 'S', fields: ['id'] }], { kind: 'sidebar' });
    const imports = a.emu.run<{ imports: Array<{ id: string }> }>('listImports', [], { kind: 'sidebar' }).value;
    a.emu.run('startImport', [imports?.imports[0].id], { kind: 'sidebar' });
    const answers = JSON.stringify([
      a.emu.run('getSidebarState', [], { kind: 'sidebar' }).value,
      a.emu.run('testConnection', [], { kind: 'sidebar' }).value,
      imports,
    ]);
    a.emu.run('showSidebar', [], { kind: 'menu' });
    expect(answers).toContain('…6789');
    for (const text of [answers, everythingStored(a.emu), a.emu.workbook.sidebar?.html ?? ''])
      expect(text).not.toContain(DEMO_KEY);
  });

  test('two keys never share cached answers', () => {
    const a = addin(svc.url);
    expect(a.cell('LP_GET', 'lp_0000a', 'id').value).toBe('lp_0000a');
    a.emu.store(`user:${a.emu.owner}`).set('INVESTOR_DATA_API_KEY', 'someone-elses-key');
    const other = a.cell('LP_GET', 'lp_0000a', 'id');
    expect(other.error).toMatch(/^The API key was refused \(HTTP 403/);
    expect(other.run.ledger.fetches).toBe(1);
  });
});
