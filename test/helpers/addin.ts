/**
 * The deployed bundle in a fresh emulator, configured to talk to a running reference service;
 * and a column of one formula per row (filled down), recalculated concurrently as Sheets does.
 */
import type { WaveOptions } from '../../dev/emulator/concurrent';
import { callCustomFunction, type CellResult, recalculateCells } from '../../dev/emulator/hosts';
import type { Ledger } from '../../dev/emulator/execution';
import { Emulator, type EmulatorOptions } from '../../dev/emulator/runtime';
import { columnLetters } from '../../dev/emulator/workbook';
import { DEMO_KEY } from './service';

export interface Addin {
  emu: Emulator;
  cell(name: string, ...args: unknown[]): CellResult;
}

/** The calls the bundle's loader makes to read and decode each part it compiles on first use (scripts/build-lib.ts, packedPart): one of each a part. */
const PART_DECODE_CALLS = [
  'HtmlService.createHtmlOutputFromFile',
  'Utilities.base64Decode',
  'Utilities.newBlob',
  'Utilities.ungzip',
];

/** An execution's calls without its loader's part decodes: what the add-in's own code called. */
export function ownCalls(ledger: Ledger): Record<string, number> {
  const parts = ledger.compiles.length - 1;
  const out = { ...ledger.calls };
  for (const call of PART_DECODE_CALLS) {
    out[call] = (out[call] ?? 0) - parts;
    if (!out[call]) delete out[call];
  }
  return out;
}

/**
 * Every emulator made since the secret scan began to watch (test/helpers/scan-secrets.ts, after each
 * test file), for it to read; undefined when nothing watches (a benchmark), so nothing keeps them.
 */
let watched: Emulator[] | undefined;

/** The emulators made from now on, kept for the caller to read (and empty) once they are done. */
export function watchCreated(): Emulator[] {
  watched ??= [];
  return watched;
}

export function addin(serviceUrl: string, key: string | null = DEMO_KEY, options: EmulatorOptions = {}): Addin {
  const emu = new Emulator(options);
  watched?.push(emu);
  emu.store('document').set('INVESTOR_DATA_BASE_URL', serviceUrl);
  if (key !== null) {
    emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_API_KEY', key);
    emu.store(`user:${emu.owner}`).set('INVESTOR_DATA_KEY_ADDRESS', serviceUrl);
  }
  return { emu, cell: (name, ...args) => callCustomFunction(emu, name, args) };
}

export interface FillDown {
  /** The sheet (created when missing). */
  sheet: string;
  /** Written down column `idCol` from `firstRow`; each row's formula refers to its own id. */
  ids: string[];
  /** The custom function, e.g. LP_GET. */
  name: string;
  /** Arguments after the id, e.g. ['firm']: `=LP_GET(A2, "firm")`. */
  rest?: unknown[];
  idCol?: number;
  formulaCol?: number;
  firstRow?: number;
}

/** One recalculated formula cell: where it is, and what it shows (with its execution's ledger in `run`). */
export type FilledCell = CellResult & { row: number; col: number; formula: string };

const formulaArg = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/**
 * Fills `=NAME(<id cell>, rest…)` down a column beside the ids (so the sheet holds what Sheets
 * would: the ids and the formulas), then recalculates every formula cell concurrently.
 */
export async function fillDownAndRecalculate(
  emu: Emulator,
  fill: FillDown,
  wave: WaveOptions = {},
): Promise<FilledCell[]> {
  const { ids, name, rest = [], idCol = 1, formulaCol = 2, firstRow = 2 } = fill;
  const data = emu.workbook.byName(fill.sheet) ?? emu.workbook.addSheet(fill.sheet);
  if (data.maxRows < firstRow + ids.length) data.maxRows = firstRow + ids.length;
  const cells = ids.map((id, i) => {
    const row = firstRow + i;
    const formula = `=${name}(${[`${columnLetters(idCol)}${row}`, ...rest.map(formulaArg)].join(', ')})`;
    data.set(row - 1, idCol - 1, id);
    data.set(row - 1, formulaCol - 1, '', formula);
    return { sheet: fill.sheet, row, col: formulaCol, name, args: [id, ...rest], formula };
  });
  const results = await recalculateCells(emu, cells, wave);
  return results.map((r, i) => ({ ...r, row: cells[i].row, col: cells[i].col, formula: cells[i].formula }));
}

/** Everything the emulator kept or logged, as one text, for scanning for secrets. */
export function everythingStored(emu: Emulator): string {
  const parts: string[] = [];
  for (const [scope, store] of emu.properties) if (!scope.startsWith('user:')) parts.push(JSON.stringify([...store]));
  for (const [, cache] of emu.caches) parts.push(JSON.stringify([...cache.items]));
  for (const ledger of emu.history) parts.push(ledger.logs.join('\n'));
  parts.push(JSON.stringify(emu.workbook.toJSON()));
  return parts.join('\n');
}
