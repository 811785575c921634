/**
 * One point of the scaling curve in a process of its own, so that its peak memory (maxRSS) is
 * this import's alone: `tsx bench/scale-point.ts ACTIVE LATENCY_MS` prints one JSON line.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SINGLE_THREADED, setBenchClock } from './clock';
import { benchScale, type ScalePoint } from './imports';

/** Runs a scale point in a child process and reads its result. */
export function scalePointInChild(active: number, latencyMs: number): ScalePoint {
  const out = execFileSync(
    process.execPath,
    [SINGLE_THREADED, '--import', 'tsx', join(__dirname, 'scale-point.ts'), String(active), String(latencyMs)],
    { encoding: 'utf8', maxBuffer: 1 << 20, timeout: 1_200_000 },
  );
  const line = out
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .pop();
  if (!line) throw new Error(`scale point ${active} printed no result: ${out.slice(-500)}`);
  return JSON.parse(line) as ScalePoint;
}

if (require.main === module) {
  setBenchClock(Number(process.argv[3]));
  benchScale(Number(process.argv[2]), Number(process.argv[3])).then((p) => {
    console.log(JSON.stringify(p));
    process.exit(0);
  });
}
