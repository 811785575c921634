/**
 * The partner lookup (src/api/partners.ts) under seeded random scenarios (test/helpers/partner-chaos.ts):
 * executions of a filled-down column and ranges run inside one another at the world's moments,
 * with evictions, claims left by dead executions, a list that changes, and failing requests.
 * Every answer of every execution keeps the lookup's promises. `LOOKUP_SEEDS=first-last` sweeps
 * another range of seeds.
 */
import { runScenario } from '../../helpers/partner-chaos';

const [first, last] = (process.env.LOOKUP_SEEDS ?? '1-200').split('-').map(Number);

test(`seeds ${first}-${last}: every answer of every execution keeps the lookup's promises`, () => {
  const broken: string[] = [];
  let executions = 0;
  for (let seed = first; seed <= last; seed++) {
    const r = runScenario(seed);
    executions += r.executions;
    if (r.violations.length) broken.push(`seed ${seed}: ${r.violations.slice(0, 3).join('\n  ')}`);
  }
  expect(broken.slice(0, 10)).toEqual([]);
  expect(executions).toBeGreaterThan(last - first);
});
