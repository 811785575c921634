/**
 * A column is the import's by its record (the field on the whole column), not by its header: the header row's names
 * in the import's columns are the analyst's to choose, and both modes keep a name the analyst gave (unless it names
 * another of the import's fields: then the column was moved without its record, and gets its own field's name).
 * Tried here through the import's entry points on the fake ports: a renamed header survives an execution that ends
 * between the write and its record, any number of renamed headers, columns swapped by cut and paste (the id column
 * too), a name like another field's in another case; a name given to a column whose field the import no longer
 * writes is named; another import's header-only sheet is refused; the header row is in no import's record (a copy
 * of it pasted below the table is the analyst's); and a sheet tagged with a record of another version is the
 * analyst's until they let the import own it again.
 */
import { LP_FIELDS } from '../../../src/api/records';
import { adoptTable, beginRun } from '../../../src/import/machine';
import { tableLayout, RECORD_VERSION } from '../../../src/import/ownership';
import type { OutCell } from '../../../src/import/ports';
import type { ImportSpec } from '../../../src/import/spec';
import { fakeList, records } from '../../helpers/fake-list';
import { type FakeTag, Killed, ownedTable, type World, world } from '../../helpers/fake-ports';

const spec = (fields: string[], mode: ImportSpec['mode'] = 'replace'): ImportSpec => ({
  id: 'imp1',
  sheetName: 'Partners',
  fields,
  mode,
});
const run = (w: World) => beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000);
const table = (w: World) => w.tables.get('Partners') as OutCell[][];

describe('a header the analyst named stays theirs, and changes nothing else', () => {
  /** A replace import run twice (the header renamed between, or not), then killed after writing a changed list. */
  function endedAfterWrite(rename: boolean) {
    const list = fakeList(records(3));
    const w = world(list.fetch, [spec(['id', 'fullName'])]);
    expect(run(w).status).toBe('done');
    if (rename) table(w)[0][1] = 'Partner';
    expect(run(w).status).toBe('done');
    list.items[1] = { ...list.items[1], fullName: 'Renamed 1' };
    const ports = w.nextExecution();
    const write = ports.target.write;
    ports.target.write = (...args) => {
      write(...args);
      w.kill();
    };
    expect(() => beginRun('imp1', 'sidebar', ports, w.clock.t + 60_000)).toThrow(Killed);
    expect(w.tags.get('Partners')?.pending).toBeDefined();
    return { w, resumed: run(w) };
  }

  test('an execution ended between the write and its record: the pending record makes the new table its own', () => {
    expect(endedAfterWrite(false).resumed.status).toBe('done');
    const { w, resumed } = endedAfterWrite(true);
    expect(table(w)).toEqual([
      ['id', 'Partner'],
      ['p0', 'Name 0'],
      ['p1', 'Renamed 1'],
      ['p2', 'Name 2'],
    ]);
    expect([resumed.status, resumed.message]).toEqual(['done', expect.stringContaining('Imported 3')]);
    expect(run(w).status).toBe('done');
  });

  test('every header of a 47-field import renamed: the replace keeps them all and rewrites the sheet', () => {
    const w = world(fakeList(records(3)).fetch, [spec([...LP_FIELDS])]);
    expect(run(w).status).toBe('done');
    const named = LP_FIELDS.map((f, c) => (c === 0 ? 'id' : `${f[0].toUpperCase()}${f.slice(1)} (fund III)`));
    table(w)[0] = [...named];
    const done = run(w);
    expect([done.status, done.message]).toEqual(['done', expect.stringContaining('Imported 3')]);
    expect(table(w)[0]).toEqual(named);
  });

  test("two columns swapped by cut and paste (cells moved, records not): each header is its field's again", () => {
    const list = fakeList(records(2).map((r, i) => ({ ...r, email: `p${i}@fund.example` })));
    const w = world(list.fetch, [spec(['id', 'fullName', 'email'])]);
    expect(run(w).status).toBe('done');
    w.tables.set(
      'Partners',
      table(w).map((r) => [r[0], r[2], r[1]]),
    );
    expect(w.columns.get('Partners')).toEqual(['id', 'fullName', 'email']);
    expect(run(w).status).toBe('done');
    expect(table(w)).toEqual([
      ['id', 'fullName', 'email'],
      ['p0', 'Name 0', 'p0@fund.example'],
      ['p1', 'Name 1', 'p1@fund.example'],
    ]);
  });

  test('the id header renamed within "id" ("ID") is kept; renamed past it ("Partner ID"), the first row is no header row and is named', () => {
    const w = world(fakeList(records(3)).fetch, [spec(['id', 'fullName'])]);
    expect(run(w).status).toBe('done');
    table(w)[0][0] = 'ID';
    expect(run(w).status).toBe('done');
    expect(table(w)[0]).toEqual(['ID', 'fullName']);
    table(w)[0][0] = 'Partner ID';
    const refused = run(w);
    expect(refused.status).toBe('failed');
    // The rows are still keyed by the id column's record: only the header row is named, no partner's row.
    expect(refused.message).toContain('not as the import left it (A1 (edited)');
    expect(refused.message).not.toMatch(/A2|B2|many/);
  });

  test('a field added to the import gets its name as its header; a formula over a header is overwritten by Replace anyway, and said', () => {
    const w = world(fakeList(records(2)).fetch, [spec(['id', 'fullName'])]);
    expect(run(w).status).toBe('done');
    table(w)[0][1] = { formula: '=UPPER("name")' };
    w.specs[0] = { ...w.specs[0], fields: ['id', 'fullName', 'firm'] };
    const refused = run(w);
    expect([refused.status, refused.message]).toEqual(['failed', expect.stringContaining('(B1 (a formula))')]);
    const forced = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000, { force: true });
    expect(forced.message).toContain('Replaced anyway: overwrote cells not as the import left them (B1 (a formula))');
    expect(table(w)[0]).toEqual(['id', 'fullName', 'firm']);
  });

  test("the id column swapped with another by cut and paste: the replace goes ahead, each header its field's", () => {
    const w = world(fakeList(records(2)).fetch, [spec(['id', 'fullName'])]);
    expect(run(w).status).toBe('done');
    w.tables.set(
      'Partners',
      table(w).map((r) => [r[1], r[0]]),
    );
    const done = run(w);
    expect([done.status, done.message]).toEqual(['done', expect.stringContaining('Imported 2')]);
    expect(table(w)).toEqual([
      ['id', 'fullName'],
      ['p0', 'Name 0'],
      ['p1', 'Name 1'],
    ]);
  });

  test("a merge after two columns were swapped by cut and paste: each header its field's, each value under its own", () => {
    const list = fakeList(records(2).map((r, i) => ({ ...r, email: `p${i}@fund.example` })));
    const w = world(list.fetch, [spec(['id', 'fullName', 'email'], 'merge')]);
    expect(run(w).status).toBe('done');
    w.tables.set(
      'Partners',
      table(w).map((r) => [r[0], r[2], r[1]]),
    );
    expect(run(w).status).toBe('done');
    expect(table(w)).toEqual([
      ['id', 'fullName', 'email'],
      ['p0', 'Name 0', 'p0@fund.example'],
      ['p1', 'Name 1', 'p1@fund.example'],
    ]);
  });

  test("a header named exactly like another field whose own column still reads it is the analyst's (no column moved)", () => {
    const named = records(2).map((r, i) => ({ ...r, name: `First ${i}` }));
    const w = world(fakeList(named).fetch, [spec(['id', 'fullName', 'name'])]);
    expect(run(w).status).toBe('done');
    table(w)[0][1] = 'name';
    expect(run(w).status).toBe('done');
    expect(table(w)[0]).toEqual(['id', 'name', 'name']);
  });

  test('a title row above the table is no header row, even with an analyst\'s column reading "id" there', () => {
    const titled = ownedTable(
      [
        ['Fund III partners', '', 'id'],
        ['id', 'fullName', 'note'],
        ['p0', 'Ann', ''],
      ],
      {},
      ['id', 'fullName', undefined],
      null,
    );
    expect(tableLayout(titled.values, titled.fields)).toMatchObject({ h: 1, idCol: 0 });
  });

  test('the header row deleted (imported cells deleted hold nothing to lose): the replace goes ahead', () => {
    const w = world(fakeList(records(2)).fetch, [spec(['id', 'fullName'])]);
    expect(run(w).status).toBe('done');
    w.tables.set('Partners', table(w).slice(1));
    expect(run(w).status).toBe('done');
    expect(table(w)[0]).toEqual(['id', 'fullName']);
  });

  test('a name like another field\'s in another case ("Name" on fullName beside name) is kept by both modes', () => {
    const named = records(2).map((r, i) => ({ ...r, name: `First ${i}` }));
    for (const mode of ['merge', 'replace'] as const) {
      const w = world(fakeList(named).fetch, [spec(['id', 'fullName', 'name'], mode)]);
      expect(run(w).status).toBe('done');
      table(w)[0][1] = 'Name';
      expect(run(w).status).toBe('done');
      expect(table(w)[0]).toEqual(['id', 'Name', 'name']);
    }
    // Named so before the name field was added: kept too.
    const w = world(fakeList(named).fetch, [spec(['id', 'fullName'], 'merge')]);
    expect(run(w).status).toBe('done');
    table(w)[0][1] = 'Name';
    w.specs[0] = { ...w.specs[0], fields: ['id', 'fullName', 'name'] };
    expect(run(w).status).toBe('done');
    expect(table(w)[0]).toEqual(['id', 'Name', 'name']);
  });

  test('a name the analyst gave a column whose field the import no longer writes is named, by a refusal or Replace anyway', () => {
    const emails = records(2).map((r, i) => ({ ...r, email: `p${i}@fund.example` }));
    const w = world(fakeList(emails).fetch, [spec(['id', 'fullName', 'email'])]);
    expect(run(w).status).toBe('done');
    table(w)[0][2] = 'Contact email (checked)';
    w.specs[0] = { ...w.specs[0], fields: ['id', 'fullName'] };
    const refused = run(w);
    expect([refused.status, refused.message]).toEqual(['failed', expect.stringContaining('left it (C1 (edited))')]);
    const forced = beginRun('imp1', 'sidebar', w.nextExecution(), w.clock.t + 60_000, { force: true });
    expect(forced.message).toContain('Replaced anyway: overwrote cells not as the import left them (C1 (edited))');
    // A column dropped with its field's own name holds nothing of the analyst's.
    const again = world(fakeList(emails).fetch, [spec(['id', 'fullName', 'email'])]);
    expect(run(again).status).toBe('done');
    again.specs[0] = { ...again.specs[0], fields: ['id', 'fullName'] };
    expect(run(again).status).toBe('done');
  });

  test('no import records its header row as its own: a copy of it pasted below the table is named by a replace', () => {
    for (const mode of ['merge', 'replace'] as const) {
      const w = world(fakeList(records(2)).fetch, [spec(['id', 'fullName'], mode)]);
      expect(w.tables.has('Partners')).toBe(false);
      expect(run(w).status).toBe('done');
      table(w).push(['id', 'fullName']);
      w.specs[0] = { ...w.specs[0], mode: 'replace' };
      const refused = run(w);
      expect([mode, refused.status]).toEqual([mode, 'failed']);
      expect(refused.message).toContain('not as the import left it (A4 (edited), B4 (edited))');
    }
  });

  test("another import's sheet holding only its header is not taken over without Replace anyway", () => {
    const w = world(fakeList([]).fetch, [spec(['id', 'fullName'])]);
    w.own('Partners', [['id', 'fullName']], ['id', 'fullName'], 'imp2');
    const done = run(w);
    expect(done.status).toBe('failed');
    expect(done.message).toContain('holds cells the import did not write (A1 (edited), B1 (edited))');
    expect(w.tags.get('Partners')?.import).toBe('imp2');
  });
});

describe('a sheet whose record is of another version', () => {
  test('is refused as a table the import did not write; once the analyst lets the import own it, replaced', () => {
    const w = world(fakeList(records(3)).fetch, [spec(['id', 'fullName'])]);
    expect(run(w).status).toBe('done');
    w.tags.set('Partners', { ...(w.tags.get('Partners') as FakeTag), version: 1 });
    const refused = run(w);
    expect([refused.status, refused.message]).toEqual([
      'failed',
      expect.stringContaining('holds cells the import did not write'),
    ]);
    adoptTable('imp1', w.nextExecution());
    const done = run(w);
    expect([done.status, done.message]).toEqual(['done', expect.stringContaining('Imported 3')]);
    expect(w.tags.get('Partners')?.version).toBe(RECORD_VERSION);
  });
});
