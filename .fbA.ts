import { setBenchClock } from './bench/clock';
import { benchFloorFormulas } from './bench/floors';
import { importService } from './bench/imports';
(async () => {
  setBenchClock(100);
  const t0 = Date.now();
  const svc = await importService(11820, 100);
  try {
    const figs = await benchFloorFormulas(svc, false);
    for (const f of figs) console.log(JSON.stringify({ name: f.name, ms: f.ms, execMs: f.execMs }));
  } finally { await svc.stop(); }
  console.log('wall', Date.now() - t0);
})();
