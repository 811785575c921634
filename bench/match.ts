/**
 * LP_MATCH over the shared partner snapshot of a large active list, warm (the snapshot filled by an
 * earlier formula), beside its fair baseline, LP_FILTER over the same snapshot sorted by one key
 * and returning every partner, and the floor both pay: LP_FILTER returning one row (reading the
 * snapshot and nothing else). LP_MATCH is run with a fund not asked for before (1 request) and with
 * the fund already cached (0). Medians of `runs` executions, each a fresh execution as Sheets runs them, round robin after
 * one round that is not counted.
 */
import type { Ledger } from '../dev/emulator/execution';
import { fundId } from '../dev/service/generate';
import { addin } from '../test/helpers/addin';
import { DEMO_KEY, type RunningService } from '../test/helpers/service';
import { modelled } from './clock';
import { type Figure, figure } from './formulas';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export function benchMatch(svc: RunningService, runs: number): Array<Figure & { rows: number }> {
  const warmUp = addin(svc.url, DEMO_KEY, modelled());
  const cold = warmUp.cell('LP_FILTER', '', 'id', '', 1);
  if (cold.error) throw new Error(`filling the snapshot: ${cold.error}`);
  const cases: Array<{ name: string; fresh?: boolean; args: [string, ...unknown[]] }> = [
    { name: 'floor: LP_FILTER, one row (the snapshot read alone)', args: ['LP_FILTER', '', 'fullName', '', 1] },
    {
      name: 'baseline: LP_FILTER, every partner sorted by ticketSize desc',
      args: ['LP_FILTER', '', 'fullName', 'ticketSize desc', 20000],
    },
    {
      name: 'LP_MATCH, every partner with some fit, a fund not asked for before (vf_000k…)',
      fresh: true,
      args: ['LP_MATCH', 'vf_0005', 20000, 'fullName'],
    },
    {
      name: 'LP_MATCH vf_0005, every partner with some fit, fund cached',
      args: ['LP_MATCH', 'vf_0005', 20000, 'fullName'],
    },
  ];
  // Round robin, so that no case pays alone for the process warming up.
  const seen = cases.map(() => ({
    walls: [] as number[],
    ledgers: [] as Ledger[],
    rows: 0,
    error: undefined as string | undefined,
  }));
  for (let k = 0; k < runs + 1; k++) {
    cases.forEach((c, i) => {
      // Same emulator (the warm snapshot); the fund-asked-for case takes a fund not asked for before on each run.
      const args = c.fresh ? [c.args[0], fundId(20 + k), ...c.args.slice(2)] : c.args;
      const t = performance.now();
      const cell = warmUp.cell(args[0] as string, ...args.slice(1));
      const wall = performance.now() - t;
      const s = seen[i];
      s.error ??= cell.error;
      s.rows = Array.isArray(cell.value) ? cell.value.length - 1 : 0;
      // The first round warms the process up and is not counted.
      if (k === 0) return;
      s.walls.push(wall);
      s.ledgers.push(cell.run.ledger);
    });
  }
  return cases.map((c, i) => {
    const { walls, ledgers, rows, error } = seen[i];
    const mid = ledgers.map((l) => l.endedAt - l.startedAt);
    const at = mid.indexOf(median(mid));
    return { ...figure(c.name, median(walls), [ledgers[at]], error), rows };
  });
}
