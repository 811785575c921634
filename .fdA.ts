import { setBenchClock, modelled } from './bench/clock';
import { importService } from './bench/imports';
import { activeIds } from './bench/sheet-scale';
import { addin, fillDownAndRecalculate } from './test/helpers/addin';
import { DEMO_KEY } from './test/helpers/service';
(async () => {
  setBenchClock(100);
  const svc = await importService(3000, 100);
  try {
    const ids = (await activeIds(svc, 2500)).filter((_, i) => i % 10 === 3);
    const b = addin(svc.url, null, modelled());
    b.emu.run('saveApiKey', [DEMO_KEY, svc.url], { kind: 'sidebar' });
    const cells = await fillDownAndRecalculate(b.emu, { sheet: 'Fill', ids, name: 'LP_GET', rest: ['fullName'] }, { concurrency: 10 });
    const exec = cells.reduce((n, c) => n + c.run.ledger.endedAt - c.run.ledger.startedAt, 0);
    const comp = cells.reduce((n, c) => n + c.run.ledger.compiles.reduce((m, x) => m + x.ms, 0), 0);
    const g = globalThis as any;
    console.log({ cells: cells.length, execMs: Math.round(exec), compileMs: Math.round(comp), computeMs: Math.round(g.__compute), serveMs: Math.round(g.__serve), calls: cells.reduce((n, c) => n + Object.values(c.run.ledger.calls).reduce((a, b) => a + b, 0), 0) });
  } finally { await svc.stop(); }
})();
