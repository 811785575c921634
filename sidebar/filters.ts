/**
 * The import form's filter editor and sort picker. Conditions are rows of field, operator and
 * value (fields and the operators each takes come from the server; values are suggested from the
 * partner snapshot, spellings that compare equal once); "is any of" takes values separated by
 * ";". After each change the server counts the active partners the conditions keep, on the
 * snapshot (no request when it is warm), and a status line says "312 of 10,045 partners match",
 * or what is wrong with a condition in the words a save would use. The sort picker takes up to
 * three fields, each ascending or descending, or fit to a venture fund (the ranking of =LP_MATCH:
 * a fund id and how many of the best to keep). Every control is named by what it acts on
 * ("Operator of condition 2"); removing a condition moves focus to the row that takes its place,
 * or to "Add condition". Everything from the server is shown as text.
 */
import { call, type FilterCondition, type FilterField, type FilterOp, type SortKey } from './rpc';
import { $, button, el, grouped, say } from './ui';

const OP_WORDS: Record<FilterOp, string> = {
  is: 'is',
  isAnyOf: 'is any of',
  contains: 'contains',
  startsWith: 'starts with',
  atLeast: 'is at least',
  atMost: 'is at most',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
};
const SORT_KEYS = 3;
/** The first sort key's choice that sorts by fit to a fund. */
const FIT = 'fit:fund';
/** Quiet time after a change before the count is asked for. */
const COUNT_DELAY_MS = 400;

interface Row {
  field: string;
  op: FilterOp;
  value: string;
}

let fields: FilterField[] = [];
let rows: Row[] = [];
const suggestions = new Map<string, Promise<string[]>>();
let countTimer: ReturnType<typeof setTimeout> | undefined;
let asked = 0;

const takesValue = (op: FilterOp): boolean => op !== 'isEmpty' && op !== 'isNotEmpty';
const opsOf = (field: string): FilterOp[] => fields.find((f) => f.name === field)?.ops ?? [];

function select(label: string, items: Array<[string, string]>, picked: string): HTMLSelectElement {
  const s = el('select');
  s.setAttribute('aria-label', label);
  s.replaceChildren(
    ...items.map(([value, text]) => {
      const o = el('option', text);
      o.value = value;
      o.selected = value === picked;
      return o;
    }),
  );
  return s;
}

/** The conditions as the server takes them ("is any of" split at ";"). */
export function currentFilters(): FilterCondition[] {
  return rows.map((r) => {
    if (!takesValue(r.op)) return { field: r.field, op: r.op };
    if (r.op === 'isAnyOf')
      return {
        field: r.field,
        op: r.op,
        value: r.value
          .split(';')
          .map((v) => v.trim())
          .filter((v) => v !== ''),
      };
    return { field: r.field, op: r.op, value: r.value.trim() };
  });
}

/** Sort by fit as the server takes it, or null when the first key is not "Fit to a venture fund". */
export function currentFit(): { fund: string; top?: number } | null {
  if ($<HTMLSelectElement>('sort-field-1').value !== FIT) return null;
  const top = $<HTMLInputElement>('fit-top').value.trim();
  const fund = $<HTMLInputElement>('fit-fund').value.trim();
  // A top that is not a number goes as it is typed, for the server to refuse in its words.
  return top === '' ? { fund } : { fund, top: /^\d+$/.test(top) ? Number(top) : (top as unknown as number) };
}

export function currentSort(): SortKey[] {
  const out: SortKey[] = [];
  if (currentFit()) return out;
  for (let k = 1; k <= SORT_KEYS; k++) {
    const field = $<HTMLSelectElement>(`sort-field-${k}`).value;
    if (field)
      out.push($<HTMLSelectElement>(`sort-direction-${k}`).value === 'desc' ? { field, descending: true } : { field });
  }
  return out;
}

/** The commonest values of a field, asked for once per field. */
function suggest(field: string, list: HTMLDataListElement): void {
  if (!suggestions.has(field))
    suggestions.set(
      field,
      call('filterValues', field).then((r) => (r.ok ? r.values : [])),
    );
  void suggestions.get(field)?.then((values) => {
    list.replaceChildren(
      ...values.map((v) => {
        const o = el('option');
        o.value = v;
        return o;
      }),
    );
  });
}

/** Asks for the count once the editing pauses; only the latest answer is shown. */
function countSoon(): void {
  if (countTimer !== undefined) clearTimeout(countTimer);
  if (rows.length === 0) {
    say('filter-count', 'No conditions: every active partner is imported.');
    return;
  }
  say('filter-count', 'Counting…');
  countTimer = setTimeout(async () => {
    const mine = ++asked;
    const r = await call('countMatches', currentFilters());
    if (mine !== asked) return;
    if (!r.ok) say('filter-count', r.message, 'error');
    else
      say(
        'filter-count',
        `${grouped(r.matched)} of ${grouped(r.total)} partners match${r.staleSince !== undefined ? ' (from a copy kept while the service fails)' : ''}.`,
      );
  }, COUNT_DELAY_MS);
}

function renderRows(focus?: { row: number; part: 'field' | 'op' | 'value' | 'remove' } | 'add'): void {
  const list = $('filter-list');
  list.replaceChildren(
    ...rows.map((r, i) => {
      const n = i + 1;
      const li = el('li');
      const field = select(
        `Field of condition ${n}`,
        fields.map((f) => [f.name, f.name]),
        r.field,
      );
      const ops = opsOf(r.field);
      const op = select(
        `Operator of condition ${n}`,
        ops.map((o) => [o, OP_WORDS[o]]),
        r.op,
      );
      const value = el('input');
      value.type = 'text';
      value.value = r.value;
      value.setAttribute(
        'aria-label',
        r.op === 'isAnyOf' ? `Values of condition ${n}, separated by ;` : `Value of condition ${n}`,
      );
      value.hidden = !takesValue(r.op);
      const listId = `filter-values-${n}`;
      const datalist = el('datalist');
      datalist.id = listId;
      value.setAttribute('list', listId);
      const remove = button('×');
      remove.setAttribute('aria-label', `Remove condition ${n}: ${r.field}`);
      field.onchange = () => {
        r.field = field.value;
        const allowed = opsOf(r.field);
        if (!allowed.includes(r.op)) r.op = allowed[0];
        renderRows({ row: i, part: 'field' });
        countSoon();
      };
      op.onchange = () => {
        r.op = op.value as FilterOp;
        renderRows({ row: i, part: 'op' });
        countSoon();
      };
      value.onfocus = () => suggest(r.field, datalist);
      value.oninput = () => {
        r.value = value.value;
        countSoon();
      };
      remove.onclick = () => {
        rows.splice(i, 1);
        renderRows(rows.length ? { row: Math.min(i, rows.length - 1), part: 'remove' } : 'add');
        countSoon();
      };
      li.append(field, op, value, datalist, remove);
      return li;
    }),
  );
  list.hidden = rows.length === 0;
  if (focus === 'add') $('add-filter').focus();
  else if (focus)
    (
      list.children[focus.row]?.querySelector(
        focus.part === 'field'
          ? 'select'
          : focus.part === 'op'
            ? 'select:nth-of-type(2)'
            : focus.part === 'value'
              ? 'input'
              : 'button',
      ) as HTMLElement | null
    )?.focus();
}

/** Builds the editor and the sort picker once the server has said which fields and operators there are. */
export function startFilters(offered: FilterField[]): void {
  if (fields.length) return;
  fields = offered;
  $('add-filter').addEventListener('click', () => {
    const first = fields.find((f) => f.name === 'region') ?? fields[0];
    rows.push({ field: first.name, op: first.ops[0], value: '' });
    renderRows({ row: rows.length - 1, part: 'field' });
    countSoon();
  });
  const picker = $('sort-keys');
  picker.replaceChildren(
    ...Array.from({ length: SORT_KEYS }, (_, k) => {
      const n = k + 1;
      const li = el('li');
      const field = select(
        `Sort key ${n}`,
        [
          ['', n === 1 ? 'Service order' : '(none)'],
          ...(n === 1 ? [[FIT, 'Fit to a venture fund'] as [string, string]] : []),
          ...fields.map((f): [string, string] => [f.name, f.name]),
        ],
        '',
      );
      field.id = `sort-field-${n}`;
      const direction = select(
        `Direction of sort key ${n}`,
        [
          ['asc', 'ascending'],
          ['desc', 'descending'],
        ],
        'asc',
      );
      direction.id = `sort-direction-${n}`;
      direction.hidden = true;
      field.onchange = () => {
        const fit = field.value === FIT;
        direction.hidden = field.value === '' || fit;
        if (n !== 1) return;
        // Fit orders every partner (ties by id): the other keys have nothing left to order.
        $('fit-box').hidden = !fit;
        for (const other of Array.from(picker.children).slice(1)) (other as HTMLElement).hidden = fit;
      };
      li.append(field, direction);
      return li;
    }),
  );
  rows = [];
  renderRows();
}

/** Shows a saved import's filters, sort and sort by fit in the editor, to be changed and saved again. */
export function showShape(
  filters: FilterCondition[],
  sort: SortKey[],
  fit: { fund: string; top?: number } | null,
): void {
  rows = filters.map((c) => ({
    field: c.field,
    op: c.op,
    value: Array.isArray(c.value) ? c.value.join('; ') : c.value === undefined ? '' : String(c.value),
  }));
  renderRows();
  countSoon();
  for (let n = 1; n <= SORT_KEYS; n++) {
    // Fit and a sort by fields are never saved together.
    const key = fit ? undefined : sort[n - 1];
    const field = $<HTMLSelectElement>(`sort-field-${n}`);
    field.value = n === 1 && fit ? FIT : (key?.field ?? '');
    $<HTMLSelectElement>(`sort-direction-${n}`).value = key?.descending ? 'desc' : 'asc';
    field.dispatchEvent(new Event('change'));
  }
  $<HTMLInputElement>('fit-fund').value = fit?.fund ?? '';
  $<HTMLInputElement>('fit-top').value = fit?.top === undefined ? '' : String(fit.top);
}
