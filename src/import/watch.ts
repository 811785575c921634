/**
 * What a completed run does after its table is written, for imports analysts watch: history and
 * alerts. History appends the run's rows, the run's time in the first column, to the sheet
 * "<sheet> history" (long format: one row per partner per run), pruning the oldest runs beyond
 * `keep`; it checks the spreadsheet's cell limit first and refuses with how many runs fit. The
 * run's rows go in one write and the run's time marks them, so the sheet only ever holds whole
 * runs, and a run finished again after its execution was killed finds its rows there and does
 * not add them twice. An alert takes the run's changes (alertChanges: added and removed against
 * the ids the last run listed, field changes by the merge rule, src/import/ownership.ts) to what it watches and, when any is left, sends one email to its owner: a
 * subject counting them, an HTML table of up to MAX_ALERT_ROWS, links to the spreadsheet and the
 * change log, every text escaped. The first completed run with an alert sets its baseline and
 * sends nothing; a spent mail quota is noted in the run's message and the run still completes.
 */
import { fnv1a } from '../api/hash';
import { grouped, plural } from '../api/numbers';
import { LP_FIELD_SPECS } from '../api/records';
import { redact } from '../api/redact';
import { type Cell, isDate } from '../table/cells';
import type { Change } from './ownership';
import type { ImportPorts, Known } from './ports';
import type { RunState } from './run-state';
import type { Alert, AlertOn, ImportSpec } from './spec';

/** Google's limit on cells in one spreadsheet (every sheet's grid). */
export const MAX_SPREADSHEET_CELLS = 10_000_000;
/** Changes listed in one alert email; the rest are counted and left to the change log. */
export const MAX_ALERT_ROWS = 50;

/** What an alert calls each kind of change the merge rule finds (repeated ids are not changes of the list). */
const KIND: Partial<Record<Change['change'], AlertOn>> = {
  'new partner': 'added',
  'no longer active': 'removed',
  'no longer matches': 'removed',
  changed: 'changed',
};

/** The changes an alert watches, in the change log's order. */
export function watchedChanges(changes: readonly Change[], alert: Pick<Alert, 'on' | 'fields'>): Change[] {
  return changes.filter((c) => {
    const kind = KIND[c.change];
    if (!kind || !alert.on.includes(kind)) return false;
    return kind !== 'changed' || !alert.fields || alert.fields.includes(c.field);
  });
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** A time as the email writes it: UTC (the script's zone), to the minute, with the zone named. */
export const mailTime = (d: Date): string => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

const DATE_FIELDS = new Set(LP_FIELD_SPECS.filter((f) => f.type === 'datetime').map((f) => f.name));
/** An ISO time as the alert's record keeps a date (`knownValue`). */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,3})?Z$/;

/** A before or after value of `field` as the email shows it: a date field's time (or a date) as `mailTime`, anything else as text. */
function shownValue(field: string, v: Cell): string {
  if (isDate(v)) return mailTime(v);
  const text = String(v ?? '');
  return DATE_FIELDS.has(field) && ISO_TIME.test(text) ? mailTime(new Date(text)) : text;
}

export interface AlertMail {
  subject: string;
  htmlBody: string;
  body: string;
}

/** Every character a mail reader may start a new line at (a CR LF pair counts once). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the file, group and record separators (U+001C-U+001E) end a line for some readers
const LINE_BREAKS = /\r\n|[\n\r\v\f\u001c-\u001e\u0085\u2028\u2029]/g;

/**
 * A value as one line of the plain text: each line break becomes a visible " ⏎ ", so a value can
 * never start a line of its own (a forged "Spreadsheet: …"); a tab, the columns' separator, a space.
 */
export const oneLine = (text: string): string => text.replace(LINE_BREAKS, ' ⏎ ').replace(/\t/g, ' ');

/**
 * The email for `changes` (already filtered) found by the run that started at `at`, with each
 * partner's name where the run's rows or the alert's record have it (a removed partner's from the
 * record); no text holds any of `secrets`.
 */
export function alertMail(
  spec: Pick<ImportSpec, 'sheetName'>,
  changes: readonly Change[],
  links: { spreadsheet: string; changeLog: string },
  names: ReadonlyMap<string, string>,
  secrets: readonly string[],
  at: Date,
): AlertMail {
  const show = (text: string): string => redact(text, secrets);
  const count = (k: AlertOn) => changes.filter((c) => KIND[c.change] === k).length;
  const parts = [
    `${grouped(count('added'))} added`,
    `${grouped(count('removed'))} removed`,
    `${grouped(count('changed'))} changed`,
  ];
  const subject = oneLine(
    show(`${plural(changes.length, 'change')} to partners in "${spec.sheetName}" (${parts.join(', ')})`),
  );
  const listed = changes.slice(0, MAX_ALERT_ROWS);
  const partner = (c: Change) => show(names.get(c.id) ? `${names.get(c.id)} (${c.id})` : c.id);
  // The HTML table's cells and the plain text's columns: the changed field, or what became of the partner.
  const cells = (c: Change) => [
    partner(c),
    (KIND[c.change] === 'changed' ? c.field : KIND[c.change]) ?? '',
    show(shownValue(c.field, c.before)),
    show(shownValue(c.field, c.after)),
  ];
  const row = (c: Change) =>
    `<tr>${cells(c)
      .map((t) => `<td>${escapeHtml(t)}</td>`)
      .join('')}</tr>`;
  const rest = changes.length - listed.length;
  const more = rest > 0 ? `${grouped(rest)} more in the change log.` : '';
  const found = `found ${plural(changes.length, 'change')} on ${mailTime(at)}: ${parts.join(', ')}.`;
  const htmlBody = [
    `<p>The import into <b>${escapeHtml(show(spec.sheetName))}</b> ${escapeHtml(found)}</p>`,
    '<table border="1" cellpadding="4" cellspacing="0"><tr><th>Partner</th><th>Field</th><th>Before</th><th>After</th></tr>',
    ...listed.map(row),
    '</table>',
    more ? `<p>${more}</p>` : '',
    `<p><a href="${escapeHtml(links.spreadsheet)}">Open the spreadsheet</a> · <a href="${escapeHtml(links.changeLog)}">Open the change log</a></p>`,
  ].join('\n');
  // Every value written into the plain text is one line: only the lines made here start a line.
  const body = [
    `The import into "${oneLine(show(spec.sheetName))}" ${found}`,
    ...listed.map((c) => cells(c).map(oneLine).join('\t')),
    more,
    `Spreadsheet: ${oneLine(links.spreadsheet)}`,
    `Change log: ${oneLine(links.changeLog)}`,
  ].join('\n');
  return { subject, htmlBody, body };
}

/** How many runs of `perRun` rows the history sheet can hold beside the rest of the spreadsheet. */
export function runsThatFit(others: number, cols: number, perRun: number): number {
  if (perRun === 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, Math.floor((MAX_SPREADSHEET_CELLS - others - cols) / (perRun * cols)));
}

/**
 * Appends the run to its history (see the file's comment); returns the rows written and a note for
 * the run's message. Runs are told apart by the time each row carries, never by where the rows
 * stand: the `keep` newest runs stay (this one among them), whatever order the sheet is sorted in.
 */
function keepHistory(
  spec: ImportSpec,
  run: RunState,
  rows: readonly Cell[][],
  ports: ImportPorts,
): { rows: number; note: string } {
  const history = spec.history;
  if (!history || !ports.history) return { rows: 0, note: '' };
  const { keep, sheet: name } = history;
  const { header, runs } = ports.history.runs(name, spec.id);
  const columns = ['Run at', ...spec.fields];
  if (header.length && header.join('\u0000') !== columns.join('\u0000')) {
    return {
      rows: 0,
      note: ` History not kept: "${name}" holds other columns (${header.slice(1).join(', ')}) than the import writes now; rename that sheet to start a new history.`,
    };
  }
  const present = runs.some((r) => r.at === run.startedAt);
  // Newest first: the runs beyond the `keep - 1` newest earlier ones go.
  const old = runs.filter((r) => r.at !== run.startedAt).sort((a, b) => b.at - a.at);
  const dropped = old.slice(keep - 1);
  const dropRows = dropped.reduce((n, r) => n + r.rows, 0);
  const width = spec.fields.length + 1;
  if (!present && rows.length) {
    const grid = ports.history.grid(name);
    const cols = Math.max(grid.cols, width);
    const held = old.slice(0, keep - 1).reduce((n, r) => n + r.rows, 0);
    // Checked for the `keep` runs the sheet will hold, not only this one: refused now, before the spreadsheet is full.
    const need = (1 + Math.max(held + rows.length, keep * rows.length)) * cols;
    if (grid.others + Math.max(need, grid.rows * cols - dropRows * cols) > MAX_SPREADSHEET_CELLS) {
      const fit = runsThatFit(grid.others, cols, rows.length);
      const fits =
        fit === 0
          ? 'not even one run of this size fits'
          : `${plural(fit, 'run')} of this size ${fit === 1 ? 'fits' : 'fit'}`;
      return {
        rows: 0,
        note: ` History not kept: ${plural(keep, 'run')} of ${plural(rows.length, 'row')} would take the spreadsheet past its ${grouped(MAX_SPREADSHEET_CELLS)} cells; ${fits} beside its other sheets. Keep ${fit === 0 ? 'fewer fields' : `at most ${plural(fit, 'run')}`}.`,
      };
    }
  }
  if (dropped.length)
    ports.history.prune(
      name,
      dropped.map((r) => r.at),
    );
  if (!present && rows.length) {
    const at = new Date(run.startedAt);
    ports.history.append(
      name,
      spec.id,
      columns,
      rows.map((r) => [at, ...r]),
    );
  }
  const kept = old.length - dropped.length + (present || rows.length ? 1 : 0);
  return { rows: present ? 0 : rows.length, note: ` History: ${plural(kept, 'run')} kept in "${name}".` };
}

/** The longest value the alert's record keeps whole; a longer one is kept as its start and a hash of the whole. */
const KNOWN_CHARS = 400;

/** A value as the alert's record keeps it: text, dates as ISO times, long text cut to its start and a hash. */
function knownValue(v: Cell): string {
  const text = isDate(v) ? v.toISOString() : String(v ?? '');
  return text.length <= KNOWN_CHARS ? text : `${text.slice(0, KNOWN_CHARS)}… #${fnv1a(text).toString(36)}`;
}

/**
 * The partners of `rows` as the alert's record keeps them: each id with its name (from column
 * `nameCol`, when the import has one; so an email can name a partner who is gone) and the values
 * of the fields it watches.
 */
export function knownOf(rows: readonly Cell[][], idCol: number, cols: readonly number[], nameCol = -1): Known[] {
  return rows.map((r) => ({
    id: String(r[idCol]),
    name: nameCol < 0 ? '' : knownValue(r[nameCol]),
    values: cols.map((c) => knownValue(r[c])),
  }));
}

/**
 * The changes an alert reports, by one rule in both modes: against what its owner was last told
 * (`before`, the alert's own record: each listed partner with the values of the watched
 * `fields`), the partners added and removed and the watched values changed. The record is the
 * alert's, never the table's: a merge that keeps rows of partners who left, a new sheet, or a run
 * that could not send mail cannot hide a change from it. A record of other fields (the alert's
 * fields changed since) tells only who was added or removed.
 */
export function alertChanges(before: readonly Known[], now: readonly Known[], fields: readonly string[]): Change[] {
  const was = new Map(before.map((k) => [k.id, k.values]));
  const is = new Set(now.map((k) => k.id));
  const blank = { field: '', before: '', after: '' };
  const changed: Change[] = [];
  for (const k of now) {
    const old = was.get(k.id);
    if (old?.length !== fields.length) continue;
    fields.forEach((field, i) => {
      if (old[i] !== k.values[i])
        changed.push({ id: k.id, change: 'changed', field, before: old[i], after: k.values[i] });
    });
  }
  return [
    ...changed,
    ...now.filter((k) => !was.has(k.id)).map((k): Change => ({ id: k.id, change: 'new partner', ...blank })),
    ...before.filter((k) => !is.has(k.id)).map((k): Change => ({ id: k.id, change: 'no longer active', ...blank })),
  ];
}

/**
 * Sends the alert for this run's changes (see the file's comment); returns what the run log says
 * of it. The alert's record moves on only when its owner is told (or there is nothing to tell):
 * a run that cannot send (mail not allowed, quota spent) leaves it, so the next run that can
 * reports the same changes. It is written before the email is sent: a run finished again after
 * its execution was killed compares with it and finds nothing to send twice.
 */
function sendAlert(
  spec: ImportSpec,
  run: RunState,
  rows: readonly Cell[][],
  ports: ImportPorts,
): { sent: string; note: string } {
  const alert = spec.alert;
  const listed = ports.listed;
  if (!alert || !ports.mail || !listed) return { sent: '', note: '' };
  const idCol = spec.fields.indexOf('id');
  const fields = alert.fields ?? spec.fields;
  const now = knownOf(
    rows,
    idCol,
    fields.map((f) => spec.fields.indexOf(f)),
    spec.fields.indexOf('fullName'),
  );
  const before = alert.baselineAt === undefined ? null : listed.read(spec.id);
  if (before === null) {
    listed.write(spec.id, now);
    const specs = ports.store.specs();
    const mine = specs.find((i) => i.id === spec.id);
    if (mine?.alert) {
      mine.alert.baselineAt = run.startedAt;
      ports.store.saveSpecs(specs);
    }
    return { sent: 'baseline', note: ' Alert: this run is the baseline; later runs email changes.' };
  }
  const watched = watchedChanges(alertChanges(before, now, fields), alert);
  if (!watched.length) {
    listed.write(spec.id, now);
    return { sent: 'no changes', note: '' };
  }
  const kept = ' Its record is kept: the next run that can send reports these changes.';
  const off = ports.mail.off();
  if (off) return { sent: 'not sent', note: ` Alert not sent: ${off}${kept}` };
  if (ports.mail.remaining() < 1)
    return { sent: 'quota spent', note: ` Alert not sent: today's email quota is spent.${kept}` };
  listed.write(spec.id, now);
  // Names as the owner knows them: a removed partner's from the record, everyone listed now from this run.
  const names = new Map<string, string>([...before, ...now].filter((k) => k.name).map((k) => [k.id, k.name]));
  const mail = alertMail(spec, watched, ports.mail.links(), names, ports.mail.secrets(), new Date(run.startedAt));
  try {
    ports.mail.send(alert.owner, mail.subject, mail.htmlBody, mail.body);
  } catch (e) {
    return { sent: 'not sent', note: ` Alert not sent: ${e instanceof Error ? e.message : String(e)}` };
  }
  return {
    sent: `sent to ${alert.owner}`,
    note: ` Alert: ${plural(watched.length, 'change')} emailed to ${alert.owner}.`,
  };
}

/** After a completed write of `rows` (the table's data rows): history, then alert. Records on the run what the run log shows. */
export function afterWrite(spec: ImportSpec, run: RunState, rows: readonly Cell[][], ports: ImportPorts): string {
  let note = '';
  try {
    const h = keepHistory(spec, run, rows, ports);
    run.historyRows = h.rows;
    note += h.note;
  } catch (e) {
    run.historyRows = 0;
    note += ` History not kept: ${e instanceof Error ? e.message : String(e)}`;
  }
  const a = sendAlert(spec, run, rows, ports);
  run.alert = a.sent;
  return note + a.note;
}
