/**
 * Formula benchmarks: =LP_GET over N ids cold and warm, N single-id formulas warm (each a fresh
 * execution, as Sheets runs them), beside a naive baseline in the same run: one
 * UrlFetchApp.fetch per id, serially, as ImportJSON-style scripts do.
 */
import { partnerId } from '../dev/service/generate';
import { Emulator } from '../dev/emulator/runtime';
import { addin } from '../test/helpers/addin';
import { DEMO_KEY, type RunningService } from '../test/helpers/service';
import type { Ledger } from '../dev/emulator/execution';
import { modelled } from './clock';

export interface Figure {
  name: string;
  wallMs: number;
  emulatedMs: number;
  fetches: number;
  cacheCalls: number;
  sheetCalls: number;
  error?: string;
}

export function figure(name: string, wallMs: number, ledgers: Ledger[], error?: string): Figure {
  const sum = (f: (l: Ledger) => number) => ledgers.reduce((n, l) => n + f(l), 0);
  const calls = (prefix: RegExp) =>
    sum((l) =>
      Object.entries(l.calls)
        .filter(([k]) => prefix.test(k))
        .reduce((n, [, v]) => n + v, 0),
    );
  return {
    name,
    wallMs: Math.round(wallMs),
    emulatedMs: Math.round(sum((l) => l.endedAt - l.startedAt)),
    fetches: sum((l) => l.fetches),
    cacheCalls: calls(/Cache\./),
    sheetCalls: calls(/^(Range|Sheet|Spreadsheet)\./),
    ...(error ? { error } : {}),
  };
}

const NAIVE = `
function naive(base, key, ids) {
  return ids.map(function (id) {
    var r = UrlFetchApp.fetch(base + '/api/limited-partners-data/getLimitedPartnerById?apiKey=' + encodeURIComponent(key) + '&limitedPartnerId=' + encodeURIComponent(id), { muteHttpExceptions: true });
    return JSON.parse(r.getContentText()).data[0].fullName;
  });
}`;

export function benchFormulas(svc: RunningService, count: number, singles: number): Figure[] {
  const ids = Array.from({ length: count }, (_, i) => [partnerId(i)]);
  const a = addin(svc.url, DEMO_KEY, modelled());
  let t = performance.now();
  const cold = a.cell('LP_GET', ids, 'id,fullName,firm,ticketSize');
  const coldFig = figure(`LP_GET ${count} ids, cold`, performance.now() - t, [cold.run.ledger], cold.error);
  t = performance.now();
  const warm = a.cell('LP_GET', ids, 'id,fullName,firm,ticketSize');
  const warmFig = figure(`LP_GET ${count} ids, warm`, performance.now() - t, [warm.run.ledger], warm.error);
  t = performance.now();
  const singleLedgers: Ledger[] = [];
  for (let i = 0; i < singles; i++) singleLedgers.push(a.cell('LP_GET', ids[i % count][0], 'fullName').run.ledger);
  const singleFig = figure(`${singles} single-id formulas, warm`, performance.now() - t, singleLedgers);
  const naive = new Emulator(modelled({ code: NAIVE }));
  t = performance.now();
  const run = naive.run('naive', [svc.url, DEMO_KEY, ids.map((r) => r[0])], { kind: 'custom-function' });
  const naiveFig = figure(
    `naive: one fetch per id, serial (${count} ids)`,
    performance.now() - t,
    [run.ledger],
    run.error,
  );
  return [coldFig, warmFig, singleFig, naiveFig];
}
