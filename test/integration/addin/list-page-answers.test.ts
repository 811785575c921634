/**
 * The deployed bundle against a service whose list answers are odd: a page past the end answered
 * with the last page (a clamping service), an id listed twice on a page, a list that only its
 * second listed path serves, a formula asking for more pages than it can read, a fund's industries
 * answered as bare names, and an address that answers with a web page. Each shows what is true (a
 * blank page, each partner once, the page asked for, a clear message) in as few requests as it takes.
 */
import { fundId } from '../../../dev/service/generate';
import { addin } from '../../helpers/addin';
import { activeIds, servicesForThisFile } from '../../helpers/service';

const services = servicesForThisFile(1, ['--partners', '400', '--funds', '10', '--max-page-size', '100']);
const svc = () => services[0];
let ids: string[];
beforeAll(async () => {
  ids = await activeIds(svc());
});
afterEach(() =>
  svc().config({
    quirks: {
      listPaths: 'both',
      clampPages: false,
      idOverrides: null,
      webPage: false,
      industryNames: false,
    } as Record<string, unknown>,
  }),
);

const column = (value: unknown): unknown[] => (value as unknown[][]).map((r) => r[0]);

test('a page past the end, which a clamping service answers with its last page, is blank; the last page is itself', async () => {
  await svc().config({ quirks: { clampPages: true } });
  const a = addin(svc().url);
  const last = Math.ceil(ids.length / 10);
  expect(column(a.cell('LP_ACTIVE', last, 10, 'id', false).value)).toEqual(ids.slice((last - 1) * 10));
  const past = a.cell('LP_ACTIVE', last + 5, 10, 'id', false);
  expect(past.value).toBe('');
  expect(past.run.ledger.fetches).toBe(1);
});

test('an id listed twice on a page is shown once, at its first place', async () => {
  await svc().config({ quirks: { idOverrides: { [ids[1]]: ids[0] } } });
  const a = addin(svc().url);
  expect(column(a.cell('LP_ACTIVE', 1, 10, 'id', false).value)).toEqual([ids[0], ...ids.slice(2, 10)]);
});

test('a page after the first, on a service that serves the list on its second listed path only, with nothing remembered', async () => {
  await svc().config({ quirks: { listPaths: 'sample' } });
  const page = addin(svc().url).cell('LP_ACTIVE', 2, 10, 'id', false);
  expect(page.error).toBeUndefined();
  expect(column(page.value)).toEqual(ids.slice(10, 20));
  expect(page.run.ledger.fetches).toBe(2);
});

test('a whole list in more pages than a formula reads is refused after page 1, naming what to change', () => {
  const cell = addin(svc().url).cell('LP_ACTIVE', '', 1, 'id', false);
  expect(cell.error).toBe(
    `${ids.length.toLocaleString('en-US')} items at 1 a page are ${ids.length.toLocaleString('en-US')} requests, too many for a formula (at most 300); pass a larger limit, or page and limit.`,
  );
  expect(cell.run.ledger.fetches).toBe(1);
  expect(column(addin(svc().url).cell('LP_ACTIVE', '', 2, 'id', false).value)).toEqual(ids);
});

test("a fund's industries answered as bare names are not shown as one blank industry: the cell says the shape is unknown", async () => {
  const a = addin(svc().url);
  const named = a.cell('FUND_INDUSTRIES', fundId(1), '', '', false).value;
  await svc().config({ quirks: { industryNames: true } });
  expect(column(named).length).toBeGreaterThan(0);
  const bare = addin(svc().url).cell('FUND_INDUSTRIES', fundId(1), '', '', false);
  expect(bare.error).toBe(
    `The data service sent industries for fund ${fundId(1)} in a shape the add-in does not read (no "industries" in its items).`,
  );
});

test('an address that answers with a web page is said to be wrong at once: one request, no retries', async () => {
  await svc().config({ quirks: { webPage: true } });
  const cell = addin(svc().url).cell('LP_GET', ids[0], 'id');
  expect(cell.error).toBe(
    'The service address answered with a web page, not the data service: check the address in Investor Data ▸ Settings.',
  );
  expect(cell.run.ledger.fetches).toBe(1);
});
