/**
 * Options of the reference service from command-line flags and environment variables, with
 * defaults that make `npm run service` a working demo: one demo key, 2,500 partners, 600 funds.
 */
import { numberOption as num, portOption, readOptions, UsageError } from '../cli-args';
import { GeneratedDataset, loadDatasetFile } from './dataset';
import { NO_FAULTS, type ServiceOptions } from './config';

export const DEMO_KEY = 'demo-key-0123456789';

export const USAGE = `npm run service -- [options]
  --port N             port (0 = any free port; default 8787, env SERVICE_PORT)
  --host H             address to listen on (default 127.0.0.1)
  --keys K1,K2         accepted API keys (default the demo key ${DEMO_KEY}, env SERVICE_API_KEYS)
  --seed N             dataset seed (default 42)
  --partners N         generated limited partners (default 2500)
  --funds N            generated venture funds (default 600)
  --data FILE          serve a JSON file {limitedPartners:[…], ventureFunds:[…]} instead
  --max-page-size N    cap on limit (default 100)
  --latency MS         added latency per API request (default 0)
  --jitter MS          ± random part of the latency (default 0)
  --fault-rate P       total probability of an injected fault, spread over 500/502/503/429/truncated
  --error500 P --error502 P --error503 P --rate-limit P --slow P --truncated P   one fault each
  --retry-after S      Retry-After seconds on 429 (default 1)
  --slow-ms MS         delay of a slow response (default 40000)
  --churn P            probability that a list request first changes the data (deactivate or reorder)
  --preload            build every partner record at start (as a real service has its data ready;
                       costs about 0.35 ms and 3 KB a partner), for benchmarks
  --fund-as-list       getVentureFundById answers data as a one-element list
  --list-paths MODE    both | listed | sample: which active-partners path answers (default both)`;

const STRING_FLAGS = [
  'port',
  'host',
  'keys',
  'seed',
  'partners',
  'funds',
  'data',
  'max-page-size',
  'latency',
  'jitter',
  'fault-rate',
  'error500',
  'error502',
  'error503',
  'rate-limit',
  'slow',
  'truncated',
  'retry-after',
  'slow-ms',
  'list-paths',
  'churn',
];
const BOOLEAN_FLAGS = ['fund-as-list', 'preload'];

export function parseServiceArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { options: ServiceOptions; port: number; host: string } {
  const values = readOptions(argv, STRING_FLAGS, BOOLEAN_FLAGS, USAGE, 'npm run service');
  const s = (k: string): string | undefined => values[k] as string | undefined;
  const seed = num(s('seed'), 'seed', 42);
  const dataset = s('data')
    ? loadDatasetFile(s('data') as string)
    : new GeneratedDataset(
        seed,
        num(s('partners'), 'partners', 2500, 0, 5_000_000),
        num(s('funds'), 'funds', 600, 0, 1_000_000),
      );
  if (values.preload && dataset instanceof GeneratedDataset) dataset.preload();
  const rate = num(s('fault-rate'), 'fault-rate', 0, 0, 1);
  const share = rate / 5;
  const p = (k: string, fallback: number) => num(s(k), k, fallback, 0, 1);
  const listPaths = s('list-paths') ?? 'both';
  if (!['both', 'listed', 'sample'].includes(listPaths))
    throw new UsageError(`--list-paths must be both, listed or sample (got "${listPaths}").`);
  const keys = (s('keys') ?? env.SERVICE_API_KEYS ?? DEMO_KEY)
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0) throw new UsageError('--keys needs at least one key.');
  return {
    port: portOption(s('port') ?? (env.SERVICE_PORT || undefined), 8787),
    host: s('host') ?? '127.0.0.1',
    options: {
      dataset,
      apiKeys: keys,
      seed,
      maxPageSize: num(s('max-page-size'), 'max-page-size', 100, 1),
      latencyMs: num(s('latency'), 'latency', 0),
      jitterMs: num(s('jitter'), 'jitter', 0),
      faults: {
        ...NO_FAULTS,
        error500: p('error500', share),
        error502: p('error502', share),
        error503: p('error503', share),
        rateLimit: p('rate-limit', share),
        truncated: p('truncated', share),
        slow: p('slow', 0),
        churn: p('churn', 0),
        retryAfterSeconds: num(s('retry-after'), 'retry-after', 1),
        slowMs: num(s('slow-ms'), 'slow-ms', NO_FAULTS.slowMs),
      },
      quirks: { fundAsList: !!values['fund-as-list'], listPaths: listPaths as 'both' | 'listed' | 'sample' },
    },
  };
}
