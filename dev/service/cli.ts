/**
 * `npm run service`: starts the reference service and prints its address and demo key.
 * Prints `SERVICE_URL=…` on one line so that scripts and tests can read the chosen port.
 */
import { exitWithParent } from '../child';
import { runMain } from '../cli-args';
import { DEMO_KEY, parseServiceArgs } from './options';
import { ReferenceService } from './server';

let service: ReferenceService | undefined;
const stop = () => (service ? service.close() : Promise.resolve()).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// Before anything is announced, so whoever started it can rely on it from the ready line on.
exitWithParent(stop);

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const { options, port, host } = parseServiceArgs(process.argv.slice(2));
  service = new ReferenceService(options);
  const url = await service.listen(port, host);
  const active = options.dataset.activePartnerIds().length;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`SERVICE_URL=${url}`);
  console.log(
    `Investor data reference service on ${url} (${options.dataset.partnerCount} partners, ${active} active, ${options.dataset.fundCount} funds; ready in ${ms.toFixed(0)} ms)`,
  );
  if (options.apiKeys.includes(DEMO_KEY)) console.log(`Demo API key: ${DEMO_KEY}`);
  else console.log(`${options.apiKeys.length} API key(s) accepted (not printed).`);
}

// A usage error exits 2 (as any failure to start always has); --help prints the options and exits 0.
runMain(main, (code) => process.exit(code), 2);
