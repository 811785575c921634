/**
 * Command-line options of the project's programs (`npm run service`, `npm start`), read one way:
 * unknown options and bad values are a usage error that says what was wrong and where the list of
 * options is, and exits 2; `--help` prints the options and exits 0. Values are checked here, so no
 * program ever prints a raw Node error such as ERR_SOCKET_BAD_PORT for a mistyped option.
 */
import { parseArgs } from 'node:util';

/** A mistake in the command line: exit code 2, the message on stderr. */
export class UsageError extends Error {}

/** `--help` was asked for: the usage on stdout, exit code 0. */
export class HelpRequested extends Error {}

export type OptionValues = Record<string, string | boolean | undefined>;

/**
 * Reads argv with the given string and boolean options (strict: anything else is a usage error
 * naming `command -- --help`). `--help` is always known.
 */
export function readOptions(
  argv: string[],
  strings: readonly string[],
  booleans: readonly string[],
  usage: string,
  command: string,
): OptionValues {
  let values: OptionValues;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        ...Object.fromEntries(strings.map((k) => [k, { type: 'string' as const }])),
        ...Object.fromEntries([...booleans, 'help'].map((k) => [k, { type: 'boolean' as const }])),
      },
    }) as { values: OptionValues });
  } catch (e) {
    throw new UsageError(
      `${(e as Error).message.replace(/\.?\s*To specify a positional argument.*$/s, '')}. \`${command} -- --help\` lists the options.`,
    );
  }
  if (values.help) throw new HelpRequested(usage);
  return values;
}

/** A number option within [min, max] (whole when `whole`), or the fallback when absent. */
export function numberOption(
  value: string | undefined,
  name: string,
  fallback: number,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
  whole = false,
): number {
  if (value === undefined) return fallback;
  // Plain decimal only: Number() would also take '0x50', '1e3' and ''.
  const n = /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < min || n > max || (whole && !Number.isInteger(n))) {
    throw new UsageError(
      `--${name} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max} (got "${value}").`,
    );
  }
  return n;
}

/** A port option: a whole number from 0 (any free port) to 65535. */
export const portOption = (value: string | undefined, fallback: number) =>
  numberOption(value, 'port', fallback, 0, 65535, true);

/**
 * Runs a program's main: a usage error prints its message and exits 2, `--help` prints the usage
 * and exits 0, any other error prints its message and exits with `failure` (after `cleanup`).
 */
export function runMain(
  main: () => Promise<void>,
  cleanup: (code: number) => Promise<void> | void = (code) => process.exit(code),
  failure = 1,
): void {
  main().catch(async (e: unknown) => {
    if (e instanceof HelpRequested) {
      console.log(e.message);
      return cleanup(0);
    }
    console.error((e as Error).message);
    return cleanup(e instanceof UsageError ? 2 : failure);
  });
}
