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
import { parseArgs } from 'node:util';
import { exitWithParent } from '../child';
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
  --out FILE          .xlsx path for --headless (default <state-dir>/workbench.xlsx)`;

interface Summary { status: string; message: string }
type Answer = ({ ok: true } & Summary) | { ok: false; message: string };

async function headless(wb: Workbench, out: string): Promise<number> {
  const list = (await wb.scriptRun('listImports', [])) as { ok: boolean; imports?: Array<{ id: string; sheetName: string }>; message?: string };
  if (!list.ok || !list.imports?.length) {
    console.error(list.ok ? 'No saved imports: save one from the sidebar first.' : list.message);
    return 1;
  }
  let failures = 0;
  for (const imp of list.imports) {
    let a = (await wb.scriptRun('startImport', [imp.id])) as Answer;
    for (let i = 0; a.ok && a.status === 'running' && i < 10_000; i++) a = (await wb.scriptRun('continueImport', [imp.id])) as Answer;
    console.log(`${imp.sheetName}: ${a.message}`);
    if (!a.ok || a.status !== 'done') failures++;
  }
  writeFileSync(out, await toXlsx(wb.emu.workbook));
  console.log(`wrote ${out}`);
  return failures ? 1 : 0;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' }, 'service-url': { type: 'string' }, latency: { type: 'string' }, 'fault-rate': { type: 'string' },
      partners: { type: 'string' }, 'state-dir': { type: 'string' }, headless: { type: 'boolean' }, out: { type: 'string' }, help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const stateDir = resolve(values['state-dir'] ?? join(__dirname, '../../.workbench'));
  if (!values['service-url']) {
    service = await startService(['--latency', values.latency ?? '0', '--fault-rate', values['fault-rate'] ?? '0', '--partners', values.partners ?? '2500']);
  }
  const serviceUrl = values['service-url'] ?? (service as RunningService).url;
  const wb = new Workbench({ serviceUrl, stateDir, allowRemoteHosts: !!values['service-url'] });
  if (wb.notice) console.error(wb.notice);
  if (values.headless) return stop(await headless(wb, resolve(values.out ?? join(stateDir, 'workbench.xlsx'))));
  const { url } = await startWorkbenchServer(wb, Number(values.port ?? 3000));
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

main().catch(async (e: unknown) => {
  console.error((e as Error).message);
  await stop(1);
});
