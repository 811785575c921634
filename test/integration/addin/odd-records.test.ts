/**
 * The deployed bundle against a service whose list holds odd but valid JSON among its partners:
 * an item that is null, a partner whose id is a list holding another partner's id, one whose
 * status is an object with a "toString" field, and one with a field named `__proto__`. No list
 * fails for them: LP_ACTIVE, LP_FIND, an import and LP_GET over the snapshot it leaves all answer,
 * the odd records without a usable id are skipped and counted, and every other partner keeps
 * its own row and values.
 */
import { addin } from '../../helpers/addin';
import { runImport, saveImport, sheet } from '../../helpers/imports';
import { activeIds, servicesForThisFile } from '../../helpers/service';

const services = servicesForThisFile(1, ['--partners', '40', '--max-page-size', '100']);
const svc = () => services[0];
let ids: string[];
beforeAll(async () => {
  ids = await activeIds(svc());
});

const column = (value: unknown): unknown[] => (value as unknown[][]).map((r) => r[0]);

test('odd records in the list cost their own rows only: LP_ACTIVE, LP_FIND, an import and LP_GET over its snapshot', async () => {
  const [, gone, listId, shadowed, odd, proto] = ids;
  // Written as JSON text: the field named `__proto__` is then a field.
  const oddRecords: unknown = JSON.parse(`{
    ${JSON.stringify(gone)}: null,
    ${JSON.stringify(listId)}: {"id": [${JSON.stringify(shadowed)}], "fullName": "Not the partner"},
    ${JSON.stringify(odd)}: {"activeStatus": {"toString": 1}},
    ${JSON.stringify(proto)}: {"__proto__": {"fullName": "Not sent"}, "fullName": null}
  }`);
  await svc().config({ quirks: { oddRecords: oddRecords as Record<string, unknown> } });
  const usable = ids.filter((id) => id !== gone && id !== listId);
  const a = addin(svc().url);

  const active = a.cell('LP_ACTIVE', '', '', 'id, fullName', false);
  expect(active.error).toBeUndefined();
  expect(column(active.value)).toEqual(usable);
  const shadowedRow = (active.value as unknown[][]).find((r) => r[0] === shadowed);
  expect(shadowedRow?.[1]).not.toBe('Not the partner');

  const found = a.cell('LP_FIND', 'a', 'fullName', 5000, false);
  expect(found.error).toBeUndefined();
  expect(column(found.value)).not.toContain(odd);
  // Warm, from the snapshot: the same partners.
  expect(a.cell('LP_FIND', 'a', 'fullName', 5000, false).value).toEqual(found.value);

  const imp = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName'] });
  const last = runImport(a.emu, imp).pop();
  expect(last).toMatchObject({ status: 'done', rows: usable.length });
  expect(last?.message).toBe(
    `Imported ${usable.length} active limited partners into "Partners". Skipped 2 listed records: 2 without an id.`,
  );
  const rows = sheet(a.emu, 'Partners').slice(1);
  expect(rows.map((r) => r[0])).toEqual(usable);
  expect(rows.find((r) => r[0] === shadowed)?.[1]).toBe(shadowedRow?.[1]);

  // The snapshot the import left answers LP_GET: the partner with a `__proto__` field has no name, its neighbours theirs.
  const got = a.cell('LP_GET', [[proto], [ids[0]]], 'fullName');
  expect(got.run.ledger.fetches).toBe(0);
  expect(got.value).toEqual([[''], [rows.find((r) => r[0] === ids[0])?.[1]]]);
});

test('a partner listed twice with different contents shows its first listing everywhere: the import, LP_ACTIVE, LP_GET and LP_FIND', async () => {
  const [first, second] = [ids[10], ids[20]];
  // The list holds `first` twice: its own record, then another partner's record under its id.
  await svc().config({ quirks: { oddRecords: null, idOverrides: { [second]: first } } as Record<string, unknown> });
  const admin = async (id: string) =>
    (await (await fetch(`${svc().url}/__admin/partner?id=${encodeURIComponent(id)}`)).json()) as { fullName: string };
  const own = (await admin(first)).fullName;
  const other = (await admin(second)).fullName;
  expect(other).not.toBe(own);
  const a = addin(svc().url);
  const rowOf = (value: unknown) => (value as unknown[][]).filter((r) => r[0] === first);

  expect(a.cell('LP_GET', first, 'fullName').value).toBe(own);
  const active = a.cell('LP_ACTIVE', '', '', 'id, fullName', false);
  expect(active.error).toBeUndefined();
  expect(rowOf(active.value)).toEqual([[first, own]]);
  expect(column(active.value)).not.toContain(second);

  const imp = saveImport(a.emu, { sheetName: 'Twice', fields: ['id', 'fullName'] });
  const last = runImport(a.emu, imp).pop();
  expect(last).toMatchObject({ status: 'done', rows: ids.length - 1 });
  expect(last?.message).toContain('Left out 1 repeated listing');
  expect(rowOf(sheet(a.emu, 'Twice').slice(1))).toEqual([[first, own]]);

  // Over the snapshot the import left: the same record, without a request.
  const got = a.cell('LP_GET', first, 'fullName');
  expect(got.value).toBe(own);
  expect(got.run.ledger.fetches).toBe(0);
  expect(rowOf(a.cell('LP_FIND', own, 'fullName', 5000, false).value)).toEqual([[first, own]]);
  const byOther = a.cell('LP_FIND', other, 'fullName', 5000, false).value;
  expect(Array.isArray(byOther) ? rowOf(byOther) : []).toEqual([]);
});
