/**
 * `npm start`: the workbench. Starts the reference service (unless --service-url points at
 * another), loads the bundle into the emulator with a workbook saved under .workbench/, serves
 * the page and prints one URL and the demo key. Ctrl-C stops everything. `--headless` runs the
 * saved imports and writes an .xlsx instead, for scheduled use from a shell. The embedded service
 * never outlives the workbench: it is stopped on every way out (Ctrl-C, a signal, a failed start,
 * an uncaught error).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitWithParent } from '../child';
import { numberOption, portOption, readOptions, runMain } from '../cli-args';
import { DEMO_KEY, type RunningService, startService } from '../service/spawn';
import { startWorkbenchServer } from './server';
import { Workbench } from './workbench';
import { toXlsx } from './xlsx';

const USAGE = `npm start -- [options]
  --port N            workbench port (default 3000; 0 = any free port)
  --service-url URL   use another service instead of the embedded one
  --latency MS        latency of the embedded service (default 0)
  --fault-rate P      injected fault rate of the embedded service (default 0)
  --partners N        partners in the embedded service (default 2500)
  --state-dir DIR     where the workbook is saved (default .workbench)
  --headless          run the saved imports, write the .xlsx, exit
  --out FILE          .xlsx path for --headless (default <state-dir>/workbench.xlsx)
  --help              this list`;

interface Summary {
  status: string;
  message: string;
}
type Answer = ({ ok: true } & Summary) | { ok: false; message: string };

async function headless(wb: Workbench, out: string): Promise<number> {
  const list = (await wb.scriptRun('listImports', [])) as {
    ok: boolean;
    imports?: Array<{ id: string; sheetName: string }>;
    message?: string;
  };
  if (!list.ok || !list.imports?.length) {
    console.error(list.ok ? 'No saved imports: save one from the sidebar first.' : list.message);
    return 1;
  }
  let failures = 0;
  for (const imp of list.imports) {
    let a = (await wb.scriptRun('startImport', [imp.id])) as Answer;
    for (let i = 0; a.ok && a.status === 'running' && i < 10_000; i++)
      a = (await wb.scriptRun('continueImport', [imp.id])) as Answer;
    console.log(`${imp.sheetName}: ${a.message}`);
    if (!a.ok || a.status !== 'done') failures++;
  }
  writeFileSync(out, await toXlsx(wb.emu.workbook));
  console.log(`wrote ${out}`);
  return failures ? 1 : 0;
}

async function main(): Promise<void> {
  const values = readOptions(
    process.argv.slice(2),
    ['port', 'service-url', 'latency', 'fault-rate', 'partners', 'state-dir', 'out'],
    ['headless'],
    USAGE,
    'npm start',
  ) as Record<string, string | undefined> & { headless?: boolean };
  // Every value is checked before anything starts: a mistake is a usage error (exit 2), never a half-started workbench.
  const port = portOption(values.port, 3000);
  const latency = numberOption(values.latency, 'latency', 0);
  const faultRate = numberOption(values['fault-rate'], 'fault-rate', 0, 0, 1);
  const partners = numberOption(values.partners, 'partners', 2500, 0, 5_000_000, true);
  const stateDir = resolve(values['state-dir'] ?? join(__dirname, '../../.workbench'));
  if (!values['service-url']) {
    service = await startService([
      '--latency',
      String(latency),
      '--fault-rate',
      String(faultRate),
      '--partners',
      String(partners),
    ]);
  }
  const serviceUrl = values['service-url'] ?? (service as RunningService).url;
  const wb = new Workbench({ serviceUrl, stateDir, allowRemoteHosts: !!values['service-url'] });
  if (wb.notice) console.error(wb.notice);
  if (values.headless) return stop(await headless(wb, resolve(values.out ?? join(stateDir, 'workbench.xlsx'))));
  const { url } = await startWorkbenchServer(wb, port);
  console.log(`Investor Data workbench: ${url}`);
  console.log(`Service: ${serviceUrl}${service ? ` (embedded) · demo API key: ${DEMO_KEY}` : ''}`);
}

let service: RunningService | undefined;
async function stop(code = 0): Promise<void> {
  await service?.stop();
  process.exit(code);
}
// Last resort on any exit path: the signal reaches the child even when there is no time to wait for it.
process.on('exit', () => service?.process.kill('SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());
// Started by a test or a script (dev/child.ts): end, and stop the service, when that parent is gone.
exitWithParent(() => void stop());

// A usage error exits 2, as the service's do; a failed start (a port in use) exits 1.
runMain(main, stop, 1);
