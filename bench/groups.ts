/**
 * The benchmark groups, and each group run in a process of its own (`tsx bench/groups.ts GROUP
 * OPTIONS_JSON` prints its figures as one JSON line), so that a group's figures are measured the
 * same way whether it runs alone (`--only`) or after the others: in one process, the heap and the
 * compiled code every earlier group left behind were the state each later group ran and was
 * charged in, a state that changed whenever a group was added, removed or made to repeat more.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Emulator } from '../dev/emulator/runtime';
import { DEMO_KEY, type RunningService, startService } from '../dev/service/spawn';
import { SINGLE_THREADED, setBenchClock } from './clock';
import { benchFloorImport, benchFloors } from './floors';
import { benchFormulas } from './formulas';
import { benchFilteredImport, benchImport, benchRateLimitedImport } from './imports';
import { benchMatch } from './match';
import { benchRefresh } from './refresh';
import { scalePointInChild } from './scale-point';
import { benchService } from './service';
import { benchSheetScale } from './sheet-scale';
import { PROCESSES, processMedian, RUNS, runsHere, SHORT_RUNS, SPREAD, shareRuns } from './typical';

export const GROUPS = [
  'formulas',
  'sheetScale',
  'refresh',
  'imports',
  'filtered',
  'match',
  'scaling',
  'service',
  'rateLimited',
  'floors',
  'bigImport',
] as const;
export type Group = (typeof GROUPS)[number];

/** What a group runs with. */
export interface GroupOptions {
  quick: boolean;
  latencyMs: number;
  scale: number[];
  /** Fault seeds of the rate-limited import. */
  seeds?: readonly number[];
  /** How many processes share the group's repeated runs (typical.ts runsHere); 1 when absent. */
  processes?: number;
}

/** Starts the emulator's fetch worker so that no figure includes its start-up. */
function warmUp(url: string): void {
  new Emulator({
    code: 'function ping(u) { return UrlFetchApp.fetch(u, { muteHttpExceptions: true }).getResponseCode(); }',
  }).run('ping', [
    `${url}/api/limited-partners-data/getLimitedPartnerById?apiKey=${DEMO_KEY}&limitedPartnerId=lp_00001`,
  ]);
}

/** Runs `use` against a reference service started with `args` (and the latency), warmed up, then stops it. */
async function withService<T>(
  args: string[],
  o: GroupOptions,
  use: (svc: RunningService) => T | Promise<T>,
): Promise<T> {
  const svc = await startService([...args, '--latency', String(o.latencyMs)]);
  try {
    warmUp(svc.url);
    return await use(svc);
  } finally {
    await svc.stop();
  }
}

/** One group's figures, in this process (on the benchmarks' clock, set first). */
export async function runGroup(group: Group, o: GroupOptions): Promise<unknown[]> {
  setBenchClock(o.latencyMs);
  shareRuns(o.processes ?? 1);
  const q = o.quick;
  switch (group) {
    case 'formulas':
      return withService(['--partners', q ? '300' : '2500'], o, (svc) =>
        benchFormulas(svc, q ? 40 : 1000, q ? 20 : 1000, q ? 1 : runsHere(RUNS)),
      );
    case 'sheetScale':
      return withService(['--partners', q ? '400' : '11800'], o, (svc) => benchSheetScale(svc, q));
    case 'refresh':
      return benchRefresh(q ? [200] : [1000, 10000, 50000]);
    case 'imports':
      return benchImport(q ? 400 : 11820, o.latencyMs, true);
    case 'filtered':
      return benchFilteredImport(q ? 400 : 11820, o.latencyMs, q ? 1 : 9);
    case 'match':
      return withService(['--partners', q ? '400' : '11820', '--preload'], o, (svc) =>
        benchMatch(svc, q ? 1 : runsHere(SHORT_RUNS)),
      );
    case 'scaling':
      return o.scale.map((n) => scalePointInChild(n, o.latencyMs));
    case 'service':
      return q ? [] : [await benchService(2500, true), await benchService(200000, false)];
    case 'rateLimited':
      // Quick: 20 pages, so the seed's draw refuses some (4 pages could all go through).
      return benchRateLimitedImport(
        q ? 2000 : 50_000,
        o.latencyMs,
        0.3,
        15,
        o.seeds ?? (q ? [7] : [1, 2, 3, 4, 5, 6, 7, 8]),
      );
    case 'floors':
      return benchFloors(q, o.latencyMs);
    case 'bigImport':
      // The reference service's largest list (it documents up to 200,000 partners): about 160,000 active, two fields.
      return [await benchFloorImport(q ? 2000 : 189_126, o.latencyMs, ['id', 'fullName'], 'completes')];
  }
  throw new Error(`Unknown group "${group}" (groups: ${GROUPS.join(', ')}).`);
}

/** The line before a group's figures in its process's output. */
const RESULT = 'GROUP FIGURES ';

/**
 * Runs a group in a process of its own (single-threaded, as every benchmark runs: clock.ts), or a
 * group of SPREAD (typical.ts; not in a quick run, whose figures claim no time) in PROCESSES processes one after another, each with its share of the runs, and
 * reads its figures (typical.ts processMedian). A group that fails fails the run, with the end of
 * its error output (passed on as it is when the group succeeds). No time limit: a group of the full
 * run takes from seconds to several minutes, more on a busy machine, and it ends or fails on its own.
 */
export function groupInChild(group: Group, o: GroupOptions): unknown[] {
  const processes = (SPREAD as readonly string[]).includes(group) && !o.quick ? PROCESSES : 1;
  const runs: unknown[][] = [];
  for (let i = 0; i < processes; i++) runs.push(oneProcess(group, { ...o, processes }));
  return processes === 1 ? runs[0] : processMedian(group, runs);
}

/** The figures of one process of a group. */
function oneProcess(group: Group, o: GroupOptions): unknown[] {
  const run = spawnSync(
    process.execPath,
    [SINGLE_THREADED, '--import', 'tsx', join(__dirname, 'groups.ts'), group, JSON.stringify(o)],
    { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const line = (run.stdout ?? '')
    .split('\n')
    .filter((l) => l.startsWith(RESULT))
    .pop();
  if (run.status !== 0 || !line)
    throw new Error(
      `The ${group} group failed (exit ${run.status ?? run.signal ?? run.error?.message}): ${(run.stderr ?? '').slice(-2000)}`,
    );
  process.stderr.write(run.stderr);
  return JSON.parse(line.slice(RESULT.length)) as unknown[];
}

if (require.main === module) {
  const [group, options] = process.argv.slice(2);
  runGroup(group as Group, JSON.parse(options) as GroupOptions).then(
    (figures) => {
      process.stdout.write(`${RESULT}${JSON.stringify(figures)}\n`);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
