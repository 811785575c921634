/**
 * The generated documentation, as functions of their one source each: docs/benchmarks.md from
 * bench/results.json, and the function reference in docs/functions.md from the JSDoc that the
 * build copies into dist/Code.js (the text Sheets shows in autocomplete), the field tables of
 * src/api/records.ts, and each function's `@example` run by the built bundle in the emulator
 * against the reference service (its sample). `npm run docs` (scripts/docs.ts) writes them;
 * test/unit/build/docs.test.ts and test/integration/addin/docs.test.ts fail when a committed page
 * differs from what these produce.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import FormulaParser from 'fast-formula-parser';
import { IMPORT_RUNS, PROCESSES, RUNS, SHORT_RUNS, SPREAD, WARM_RUNS, WAVE_RUNS } from '../bench/typical';
import {
  CODE_BYTES_PER_MS,
  COMMENT_BYTES_PER_MS,
  FIRST_RUN_CHARS_PER_MS,
  LITERAL_BYTES_PER_MS,
  LOAD_SAMPLES,
  REPEAT_CHARS_PER_MS,
} from '../dev/emulator/compile';
import { callCustomFunction } from '../dev/emulator/hosts';
import type { Emulator } from '../dev/emulator/runtime';
import { FUND_FIELD_SPECS, type FieldSpec, LP_FIELD_SPECS } from '../src/api/records';
import { describeExports, type ExposedFunction, exportNamesFromIndex, isCustomFunctionName } from './build-lib';

/** The marker pair that fences a generated part of a hand-written page. */

/** A count of runs in words: once, or N times. */
const times = (n: number) => (n === 1 ? 'once' : `${n} times`);
export const fence = (name: string) => ({
  start: `<!-- generated: ${name} (npm run docs; edit the source, not this part) -->`,
  end: `<!-- end generated: ${name} -->`,
});

/** The page with its fenced part replaced by `body`; refuses a page without both markers. */
export function replaceFenced(page: string, name: string, body: string): string {
  const { start, end } = fence(name);
  const a = page.indexOf(start);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error(`the page has no "${start}" ... "${end}" part`);
  return `${page.slice(0, a + start.length)}\n${body.trim()}\n${page.slice(b)}`;
}

// ---------------------------------------------------------------------------------------------
// Function reference

interface Param {
  name: string;
  type: string;
  optional: boolean;
  text: string;
}

export interface FunctionDoc {
  name: string;
  summary: string;
  params: Param[];
  returns: { type: string; text: string };
  example?: string;
}

/** Reads a JSDoc block as Sheets does: the text before the tags, each @param, the @return. */
export function parseJsDoc(fn: ExposedFunction): FunctionDoc {
  const lines = (fn.doc ?? '')
    .replace(/^\/\*\*|\*\/$/g, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, '').trimEnd());
  const summary: string[] = [];
  const params: Param[] = [];
  let returns = { type: '', text: '' };
  const doc: { example?: string } = {};
  for (const line of lines) {
    const param = /^@param\s+\{([^}]*)\}\s+(\[)?(\w+)\]?\s*(.*)$/.exec(line);
    const ret = /^@returns?\s+\{([^}]*)\}\s*(.*)$/.exec(line);
    const example = /^@example\s+(.*)$/.exec(line);
    if (example) doc.example = example[1].trim();
    else if (param) params.push({ type: param[1], optional: !!param[2], name: param[3], text: param[4] });
    else if (ret) returns = { type: ret[1], text: ret[2] };
    else if (!line.startsWith('@') && params.length === 0 && line.trim()) summary.push(line.trim());
  }
  return { name: fn.name, summary: summary.join(' '), params, returns, ...doc };
}

/** A JSDoc type in words: `string|Array<Array<string>>` is "text or a range". */
function typeWords(type: string): string {
  if (/^Array/.test(type)) return 'a range';
  const words = type
    .split('|')
    .map((t) => (/^Array/.test(t) ? 'a range' : t === 'string' ? 'text' : t === 'Date' ? 'a date' : t));
  return [...new Set(words)].join(' or ');
}

const cellText = (s: string) => s.replace(/\|/g, '\\|');

function fieldTable(specs: readonly FieldSpec[]): string {
  const rows = specs.map((s) => `| \`${s.name}\` | ${s.type} |`);
  return ['| Field | Type |', '|---|---|', ...rows].join('\n');
}

/** The longest text a sample cell shows (a sample is for the shape of the answer). */
const SAMPLE_TEXT = 40;
/** Rows of a sample shown at most, beyond the first. */
const SAMPLE_ROWS = 6;

function sampleCell(v: unknown): string {
  if (Object.prototype.toString.call(v) === '[object Date]')
    return (v as Date).toISOString().slice(0, 16).replace('T', ' ');
  const s = v === null || v === undefined ? '' : String(v);
  return cellText(s.length > SAMPLE_TEXT ? `${s.slice(0, SAMPLE_TEXT - 1)}…` : s);
}

/** A column's letters as Sheets names it (0 is A, 26 is AA). */
const columnLetter = (c: number): string =>
  (c >= 26 ? columnLetter(Math.floor(c / 26) - 1) : '') + String.fromCharCode(65 + (c % 26));

const customFunctionNames = (formula: string) => [
  ...new Set([...formula.matchAll(/([A-Z][A-Z0-9_]*)\s*\(/g)].map((m) => m[1])),
];

/**
 * What a function's `@example` formula gives: run by the bundle's custom function in the emulator
 * (its literal arguments read by the workbench's formula parser), as a Markdown table, or the
 * cell's message.
 */
export function runExample(emu: Emulator, formula: string): string {
  let answer: ReturnType<typeof callCustomFunction> | undefined;
  const parser = new FormulaParser({
    functions: Object.fromEntries(
      customFunctionNames(formula).map((name) => [
        name,
        (...args: Array<{ value: unknown; omitted?: boolean }>) => {
          answer = callCustomFunction(
            emu,
            name,
            args.map((a) => (a.omitted ? '' : a.value)),
          );
          return 0;
        },
      ]),
    ),
  });
  parser.parse(formula.replace(/^=/, ''), { sheet: 'Sheet1', row: 1, col: 1 }, true);
  if (!answer) throw new Error(`${formula}: not a call of the add-in's functions`);
  if (answer.error !== undefined) return `The cell shows \`#ERROR!\`: ${answer.error}`;
  const grid = Array.isArray(answer.value) ? (answer.value as unknown[][]) : [[answer.value]];
  const shown = grid.slice(0, SAMPLE_ROWS + 1);
  const width = Math.max(...shown.map((r) => r.length));
  const line = (r: unknown[]) => `| ${Array.from({ length: width }, (_, c) => sampleCell(r[c]) || ' ').join(' | ')} |`;
  // The sheet's column letters head the table, so every row of the answer reads as a row of cells
  // (a header row the function gives among them; a list without one, such as LP_FIELDS, as its data).
  const out = [
    `| ${Array.from({ length: width }, (_, c) => columnLetter(c)).join(' | ')} |`,
    `|${Array.from({ length: width }, () => '---').join('|')}|`,
    ...shown.map(line),
  ];
  if (grid.length > shown.length) out.push(`| … ${grid.length - shown.length} more rows |${' |'.repeat(width - 1)}`);
  return out.join('\n');
}

/**
 * The reference part of docs/functions.md, from the custom functions' JSDoc and the field tables;
 * with `sample`, each function's `@example` and what it gives.
 */
export function renderFunctionReference(fns: readonly ExposedFunction[], sample?: (formula: string) => string): string {
  const out: string[] = [];
  for (const doc of fns.filter((f) => f.custom).map(parseJsDoc)) {
    const signature = doc.params.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ');
    out.push(`### ${doc.name}(${signature})`, '', doc.summary, '');
    if (doc.params.length) {
      out.push('| Argument | Takes | Meaning |', '|---|---|---|');
      for (const p of doc.params)
        out.push(`| \`${p.name}\`${p.optional ? ' (optional)' : ''} | ${typeWords(p.type)} | ${cellText(p.text)} |`);
      out.push('');
    }
    out.push(`Result (${typeWords(doc.returns.type)}): ${doc.returns.text}`, '');
    if (doc.example && sample)
      out.push(
        `Sample, from the reference service (\`npm run service\`): \`${doc.example}\``,
        '',
        sample(doc.example),
        '',
      );
  }
  out.push(
    '### Fields of a limited partner',
    '',
    'What `LP_GET`, `LP_ACTIVE`, `LP_FIND` and imports can show (`=LP_FIELDS(TRUE)` lists the same).',
    '',
    fieldTable(LP_FIELD_SPECS),
    '',
  );
  out.push(
    '### Fields of a venture fund',
    '',
    'What `FUND_GET` can show (`=FUND_FIELDS(TRUE)` lists the same).',
    '',
    fieldTable(FUND_FIELD_SPECS),
  );
  return out.join('\n');
}

/**
 * The custom functions as the build sees them (same source, same JSDoc), in the order src/index.ts
 * lists their files and each file declares them, so the reference reads like the source.
 */
export function customFunctions(root: string): ExposedFunction[] {
  const index = readFileSync(join(root, 'src/index.ts'), 'utf8');
  const files = [...index.matchAll(/from '\.\/(entry\/[\w-]+)'/g)].map((m) =>
    readFileSync(join(root, 'src', `${m[1]}.ts`), 'utf8'),
  );
  const place = (name: string) => {
    const f = files.findIndex((text) => text.includes(`export function ${name}(`));
    return f * 1e7 + (f < 0 ? 0 : files[f].indexOf(`export function ${name}(`));
  };
  const names = exportNamesFromIndex(join(root, 'src/index.ts'))
    .filter(isCustomFunctionName)
    .sort((a, b) => place(a) - place(b));
  return describeExports(join(root, 'src'), names);
}

// ---------------------------------------------------------------------------------------------
// Benchmarks

type Row = Record<string, string | number | boolean | null | undefined>;

/** What each group of bench/results.json measures (a group not listed here is shown with its name). */
/**
 * The cells of an import's record of `partners` rows: two columns, its rows packed into cells of up to 50,000
 * characters (about 1,000 rows of five fields each), at least a new sheet's 1,000 rows.
 */
export const recordCells = (partners: number): number => 2 * Math.max(1000, Math.ceil(partners / 1000));
const MAX_CELLS = 10_000_000;

const GROUPS: Record<string, { title: string; text: string }> = {
  formulas: {
    title: 'Custom functions over a range',
    text: '`=LP_GET` over a range of ids, cold and warm, then single-id formulas of those ids after it (each a fresh execution); the naive baseline fetches one id at a time, serially.',
  },
  sheetScale: {
    title: 'Fill-down and thousands of ids',
    text: "Single-id formulas filled down a column over a large active list, one at a time and 10 at once (the emulator's concurrent recalculation); the floor of such a wave with no add-in code at all; and ranges of thousands of distinct ids, against every id in parallel `fetchAll` batches of 100 with no cache.",
  },
  refresh: {
    title: 'Refresh all formulas',
    text: '*Refresh all formulas* over fill-down formulas, one execution each, against rewriting one cell at a time and against one `setFormulas` pair per sheet by hand ("fair": it keeps no journal, so killed between its two calls it leaves the whole column empty). `lost` counts formulas left erased.',
  },
  imports: {
    title: 'Imports',
    text: `An import of the whole active list, against serial pages of 10 with one \`setValues\` per page, and the sheet writes against one \`setValue\` per cell. *Record cells* is what the import's record of what it wrote costs of the spreadsheet's ${MAX_CELLS.toLocaleString('en-US')} cells: a hidden sheet of two columns (the record, and the one a write under way is about to make current), its rows packed about 1,000 a cell, at least a new sheet's 1,000 rows: ${recordCells(10_000).toLocaleString('en-US')} cells at 10,000 partners, ${recordCells(50_000).toLocaleString('en-US')} at 50,000.`,
  },
  filtered: {
    title: 'Imports with filters and sort',
    text: "The same import unfiltered, filtered on three conditions an analyst keeps (regions, a ticket size, a sector word) and sorted by two keys, and filtered on three conditions every partner meets (the filter's whole cost, with nothing saved on the write); round robin, each in a fresh emulator, medians of the runs. `addedPercent` is what the filter and sort add to the unfiltered import's emulated time.",
  },
  match: {
    title: 'LP_MATCH',
    text: `\`=LP_MATCH\` ranking every active partner of a list of 10,000 for a fund, warm (the snapshot filled by an earlier formula), beside its fair baseline, \`=LP_FILTER\` over the same snapshot returning every partner sorted by one key, and the floor both pay, \`=LP_FILTER\` returning one row (the snapshot read alone). LP_MATCH runs once with a fund not asked for before (its one request) and once with the fund cached; round robin in one emulator after a round not counted, medians of ${SHORT_RUNS / PROCESSES} runs in each of ${PROCESSES} processes, the middle process's. The custom-function limit is 30 s.`,
  },
  scaling: {
    title: 'Import scaling',
    text: 'Imports from the scheduled trigger, each size in its own process for its peak memory.',
  },
  service: {
    title: 'Reference service',
    text: 'Start-up (process spawn to listening, including the TypeScript loader), the first 100-row page, peak memory, and `getLimitedPartnerById` requests a second with 16 concurrent keep-alive clients.',
  },
  floors: {
    title: 'The add-in beside its floor',
    text: `Each case beside its floor: the very requests the add-in sent, batch by batch, replayed with no add-in code (a script that only sends them and reads their text), execution by execution; the fill-down's floor is the ideal wave of *Fill-down and thousands of ids*. \`ratio\` is the add-in's time over its floor's (\`execRatio\`: its executions' time summed, for the wave), what is left above 1 being the add-in's own work: compiling the bundle, which every execution pays, parsing answers, building and reading the snapshot, the cache and the sheet. \`target\` is where the case should be. Each formula case runs ${times(RUNS / PROCESSES)} cold in each of ${PROCESSES} processes, a warm one ${(RUNS / PROCESSES) * WARM_RUNS} times (${WARM_RUNS} after each cold run), the fill-down ${times(WAVE_RUNS / PROCESSES)} and each import ${times(IMPORT_RUNS / PROCESSES)} in each, and a figure is the median run of the process whose median is the middle one: what is left above the modelled requests is CPU time at the reference speed, and the median run is the one that repeats (the fastest of a few is an extreme: a collection that missed it, a calibration that read the host slow). The list holds about 10,000 active partners (the imports: 10,045 and 50,205), pages of 100. Each import is driven as the sidebar drives it: each step as long as its time allows (5 minutes), the progress bar moved meanwhile by the sidebar's own calls for the status, which run beside the step and are not counted here; an import that needs a second step stages the rows of the first, which the last reads back to write the table.`,
  },
  bigImport: {
    title: 'The largest import',
    text: "An import of about 160,000 active partners, two fields, from the sidebar (the reference service's list at 189,126 partners; it documents up to 200,000), beside the same requests replayed with no add-in code.",
  },
  rateLimited: {
    title: 'Imports against a rate-limited service',
    text: "A sidebar import with 30 % of requests answered 429 with `Retry-After: 15`, one row per service seed (the service draws each refusal from the seed, the page and its attempt, so a seed repeats whatever the order of requests). Requests are counted by the service beside its distinct ones (pages) and its refusals: extra requests are pages read again. `longest429Run` is the most 429s in a row one page met, and the wait floor that many `Retry-After`s: no import that honours `Retry-After` ends sooner, though the rest of the import mostly overlaps those waits, so it is a floor, not an estimate. The steps are where the modelled clock ends each step's budget (5 minutes), so a rerun of a seed repeats them however busy the machine is.",
  },
};

const HEADINGS: Record<string, string> = {
  name: 'Case',
  wallMs: 'Wall',
  emulatedMs: 'Emulated',
  fetches: 'Fetches',
  cacheCalls: 'Cache calls',
  sheetCalls: 'Sheet calls',
  setFormulaCalls: '`setFormulas` calls',
  setValuesCalls: '`setValues` calls',
  recordCells: 'Record cells',
  timedOut: 'Timed out',
  peakRssMb: 'Peak RSS',
  peakMemoryMb: 'Peak memory',
  startupMs: 'Start-up',
  firstPageMs: 'First page',
  requestsPerSecond: 'Requests/s',
  longestExecutionMs: 'Longest execution',
  longestStepMs: 'Longest step',
  activePartners: 'Active partners',
  rateLimited: '429s',
  longest429Run: 'Longest 429 run',
  waitFloorMs: 'Wait floor',
  extraRequests: 'Extra requests',
  floorMs: 'Floor',
  ratio: 'Ratio',
  execMs: 'Exec time',
  floorExecMs: 'Floor exec time',
  execRatio: 'Exec ratio',
  fetchAllCalls: '`fetchAll` calls',
  target: 'Target',
  ms: 'Time',
  error: 'Error',
};

const heading = (key: string) => HEADINGS[key] ?? key.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());

const number = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

function value(key: string, v: Row[string]): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number' && (key.endsWith('Ms') || key === 'ms'))
    return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v} ms`;
  if (typeof v === 'number' && key.endsWith('Mb')) return `${number(v)} MB`;
  if (typeof v === 'number') return number(v);
  return cellText(String(v));
}

function table(rows: Row[]): string {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const lines = [`| ${keys.map(heading).join(' | ')} |`, `|${keys.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${keys.map((k) => value(k, r[k])).join(' | ')} |`);
  return lines.join('\n');
}

/** docs/benchmarks.md, whole, from the parsed bench/results.json. */
export function renderBenchmarks(results: Record<string, unknown>): string {
  const out = [
    '# Benchmarks',
    '',
    '<!-- Generated by `npm run docs` from bench/results.json (scripts/docs-lib.ts); do not edit. -->',
    '',
    '`npm run bench` runs every group against the reference service in a child process with injected',
    'latency (the import benchmarks start it with `--preload`), each group in a process of its own (so that',
    'no figure depends on the groups run before it), each figure beside its naive baseline from',
    'the same run, and writes `bench/results.json`; `npm run bench -- --only refresh,formulas` runs only',
    "those groups and keeps the others' figures. `npm test` runs a small `--quick` version as a smoke check,",
    `with no timing assertions, and writes nothing. A case a group repeats (a formula cold and warm, a fill-down, an import) shows its median run, all of its figures from that run; the groups that repeat cases of a few hundred ms of CPU time (${SPREAD.map((g) => `*${GROUPS[g].title}*`).join(', ')}) run in ${PROCESSES} processes, a share of the runs in each, and show case by case the process whose run is the median of theirs (a process sets the pace of all its runs: its compiled code and its heap are its own). *Emulated* is the emulator's simulated execution time on`,
    'its modelled clock, so that a figure repeats however busy the machine is: the compilation of the bundle',
    "at its size (every execution pays it), the CPU time of each execution's own work at a reference speed",
    '(a calibration task of the same kind of work, parsing an answer and sorting and projecting its records,',
    "runs between the measured stretches, and each stretch is scaled by the task's reference time over its",
    'time then, so that cores slowed by a busy neighbour charge the same work the same), each request at',
    'the injected latency plus its bytes at 5 MB/s with at most 10 requests of a `fetchAll` in flight, the',
    'modelled cost of each Apps Script call and the waits (see [the emulator](architecture.md#emulator-devemulator));',
    '*Wall* is real time on the machine that ran it, shared with whatever else ran there: it does not repeat.',
    '',
    `Latest run written: ${String(results.date ?? 'unknown').slice(0, 10)}; injected latency ${value('', results.latencyMs as number)} ms;`,
    `\`dist/Code.js\` ${value('', results.bundleKb as number)} KB (loaded on every custom-function call): V8 compiles it afresh in ${value('', results.bundleCompileMs as number)} ms of CPU at the reference speed and runs its top-level code in ${value('', results.bundleEvaluateMs as number)} ms (medians of ${LOAD_SAMPLES}, measured when the run began); the modelled clock charges each execution the compilation at ${number(CODE_BYTES_PER_MS)} bytes of code, ${number(LITERAL_BYTES_PER_MS)} of string literal and ${number(COMMENT_BYTES_PER_MS)} of comment a ms (${value('', results.bundleChargedMs as number)} ms: the parts the bundle compiles on first use, ${value('', results.partsKb as number)} KB gzipped, are HTML files beside it, and each is charged as code in the execution that first uses it) and the evaluation from the code it runs, as V8's coverage of one fresh load counts it, at ${number(FIRST_RUN_CHARS_PER_MS)} characters a ms for a character's first run and ${number(REPEAT_CHARS_PER_MS)} for its repeats (${value('', results.bundleEvaluateChargedMs as number)} ms): ${value('', Math.round(((results.bundleChargedMs as number) + (results.bundleEvaluateChargedMs as number)) * 100) / 100)} ms in all.`,
  ];
  for (const [key, rows] of Object.entries(results)) {
    if (!Array.isArray(rows) || rows.length === 0) continue;
    const group = GROUPS[key] ?? { title: key, text: '' };
    out.push('', `## ${group.title} (\`--only ${key}\`)`, '');
    if (group.text) out.push(group.text, '');
    out.push(table(rows as Row[]));
  }
  out.push(
    '',
    '## Fault soak',
    '',
    '`npm run soak` runs imports (replace and merge, several saved imports, two of them filtered and sorted) and formula batches against a',
    'service that fails a share of its requests (500, 503, 429 with `Retry-After`, truncated JSON bodies,',
    'answers slower than the fetch timeout) while the list changes under running imports, and exits',
    'non-zero unless every import completes correctly (a filtered replace with exactly the matching active partners, in order; a filtered merge with a row for each, in the order the analyst left them) or fails with its sheet byte-for-byte unchanged and',
    'a message naming what failed, and no formula row shows a wrong value. `--outage` takes the service',
    'hard down once each saved import has run; `--sweep N` repeats the faulty formula case on N service',
    'seeds; `--imports N --formulas N --seconds S` bound it. It prints its figures; they are not kept here.',
    '',
  );
  return out.join('\n');
}

export const readResults = (root: string) =>
  JSON.parse(readFileSync(join(root, 'bench/results.json'), 'utf8')) as Record<string, unknown>;
