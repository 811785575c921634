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
import type { CellResult } from '../dev/emulator/hosts';
import { modelled } from './clock';
import { median, WARM_RUNS } from './typical';

export const byEmulated = (f: Figure) => f.emulatedMs;

/** One formula cell's execution as a figure: its wall time on this machine and its ledger. */
export function timed(name: string, run: () => CellResult): Figure {
  const t = performance.now();
  const r = run();
  return figure(name, performance.now() - t, [r.run.ledger], r.error);
}

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

export function benchFormulas(svc: RunningService, count: number, singles: number, runs: number): Figure[] {
  const ids = Array.from({ length: count }, (_, i) => [partnerId(i)]);
  // Each round a fresh add-in, cold then WARM_RUNS warm; each figure the median run's (bench/typical.ts).
  const colds: Figure[] = [];
  const warms: Figure[] = [];
  const round = () => {
    const fresh = addin(svc.url, DEMO_KEY, modelled());
    colds.push(timed(`LP_GET ${count} ids, cold`, () => fresh.cell('LP_GET', ids, 'id,fullName,firm,ticketSize')));
    for (let k = 0; k < WARM_RUNS; k++)
      warms.push(timed(`LP_GET ${count} ids, warm`, () => fresh.cell('LP_GET', ids, 'id,fullName,firm,ticketSize')));
    return fresh;
  };
  let a = round();
  for (let i = 1; i < runs; i++) a = round();
  const coldFig = median(colds, byEmulated);
  const warmFig = median(warms, byEmulated);
  let t = performance.now();
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
