/**
 * Google's rules for an Editor add-on's triggers, documents and users, against probe scripts:
 * one time-driven trigger per user per document, nothing more often than hourly (one-offs too),
 * getProjectTriggers across the project's documents and getUserTriggers for one, each document
 * firing only its own triggers, none while the add-on is disabled there; a bound script keeps
 * its own rules. (https://developers.google.com/workspace/add-ons/concepts/editor-triggers)
 */
import { type Emulator, ScriptProject } from '../../../dev/emulator/runtime';
import { probe } from '../../helpers/probe';

const PROBES = `
function hourly() { return ScriptApp.newTrigger('tick').timeBased().everyHours(1).create().getUniqueId(); }
function every(kind, n) { var b = ScriptApp.newTrigger('tick').timeBased(); (kind === 'minutes' ? b.everyMinutes(n) : b.everyHours(n)).create(); }
function after(ms) { return ScriptApp.newTrigger('tick').timeBased().after(ms).create().getUniqueId(); }
function atIn(ms) { return ScriptApp.newTrigger('tick').timeBased().at(new Date(new Date().getTime() + ms)).create().getUniqueId(); }
function ids(list) { return list.map(function (t) { return t.getUniqueId(); }); }
function project() { return ids(ScriptApp.getProjectTriggers()); }
function here() { return ids(ScriptApp.getUserTriggers(SpreadsheetApp.getActive())); }
function clearHere() { ScriptApp.getUserTriggers(SpreadsheetApp.getActiveSpreadsheet()).forEach(function (t) { ScriptApp.deleteTrigger(t); }); }
function docId() { return SpreadsheetApp.getActiveSpreadsheet().getId(); }
function tick() { var p = PropertiesService.getDocumentProperties(); p.setProperty('ticks', String(Number(p.getProperty('ticks') || 0) + 1)); }
function setUserProp(v) { PropertiesService.getUserProperties().setProperty('k', v); }
function getUserProp() { return PropertiesService.getUserProperties().getProperty('k'); }
`;

const TOO_MANY =
  'Exception: This add-on has created too many time-based triggers in this document for this Google user account.';
const HOURLY = 'Exception: Add-ons can only create time-based triggers that run at most once per hour.';
const HOUR = 3_600_000;

/** One user's two spreadsheets, A and B, with the same add-on. */
function twoDocuments(): { a: Emulator; b: Emulator; project: ScriptProject } {
  const project = new ScriptProject({ addOn: true });
  return {
    project,
    a: probe(PROBES, { project, documentId: 'sheet-a' }),
    b: probe(PROBES, { project, documentId: 'sheet-b' }),
  };
}

describe('an add-on used in two spreadsheets by one user', () => {
  test('each spreadsheet knows its own id, and a document without one gets a unique id', () => {
    const { a, b } = twoDocuments();
    expect([a.run('docId').value, b.run('docId').value]).toEqual(['sheet-a', 'sheet-b']);
    const [c, d] = [probe(PROBES), probe(PROBES)];
    expect(c.documentId).not.toBe(d.documentId);
    expect(c.run('docId').value).toBe(c.documentId);
  });

  test('one time-driven trigger in each is allowed; a second in the same document is refused', () => {
    const { a, b, project } = twoDocuments();
    const inA = a.run('hourly');
    const inB = b.run('hourly');
    expect([inA.error, inB.error]).toEqual([undefined, undefined]);
    expect(a.run('hourly').error).toBe(TOO_MANY);
    expect(a.run('after', [2 * HOUR]).error).toBe(TOO_MANY);
    expect(project.triggers.triggers.map((t) => t.documentId)).toEqual(['sheet-a', 'sheet-b']);
    // Another user of the same document has a trigger of their own.
    expect(a.run('hourly', [], { user: 'colleague@example.com' }).error).toBeUndefined();
  });

  test('getProjectTriggers sees both; getUserTriggers only the spreadsheet’s own', () => {
    const { a, b } = twoDocuments();
    const idA = a.run<string>('hourly').value;
    const idB = b.run<string>('hourly').value;
    expect(a.run('project').value).toEqual([idA, idB]);
    expect(a.run('here').value).toEqual([idA]);
    expect(b.run('here').value).toEqual([idB]);
    expect(a.run('here', [], { user: 'colleague@example.com' }).value).toEqual([]);
  });

  test('deleting what getUserTriggers lists in B leaves A’s trigger', () => {
    const { a, b } = twoDocuments();
    const idA = a.run<string>('hourly').value;
    b.run('hourly');
    expect(b.run('clearHere').error).toBeUndefined();
    expect(b.run('project').value).toEqual([idA]);
    expect(b.run('hourly').error).toBeUndefined();
  });

  test('advancing A’s clock fires only A’s trigger', () => {
    const { a, b } = twoDocuments();
    a.run('hourly');
    b.run('hourly');
    const runs = a.advance(3 * HOUR);
    expect(runs.map((r) => [r.ledger.kind, r.error])).toEqual([
      ['trigger', undefined],
      ['trigger', undefined],
      ['trigger', undefined],
    ]);
    expect(a.store('document').get('ticks')).toBe('3');
    expect(b.store('document').get('ticks')).toBeUndefined();
    expect(b.advance(HOUR)).toHaveLength(1);
    expect(b.store('document').get('ticks')).toBe('1');
  });

  test("a user's user properties are the same in both documents; document properties are not", () => {
    const { a, b } = twoDocuments();
    a.run('setUserProp', ['from A']);
    expect(b.run('getUserProp').value).toBe('from A');
    expect(b.store('user:owner@example.com')).toBe(a.store('user:owner@example.com'));
    expect(b.run('getUserProp', [], { user: 'colleague@example.com' }).value).toBeNull();
    a.store('document').set('x', '1');
    expect(b.store('document').has('x')).toBe(false);
  });
});

describe('an add-on’s triggers run at most hourly', () => {
  test('recurring: every 30 minutes refused, hourly allowed', () => {
    const emu = probe(PROBES, { addOn: true });
    expect(emu.run('every', ['minutes', 30]).error).toBe(HOURLY);
    expect(emu.run('every', ['hours', 1]).error).toBeUndefined();
  });

  test('one-offs due within the hour are refused; an hour away is allowed', () => {
    const emu = probe(PROBES, { addOn: true });
    expect(emu.run('after', [0]).error).toBe(HOURLY);
    expect(emu.run('after', [HOUR - 1]).error).toBe(HOURLY);
    expect(emu.run('atIn', [30 * 60_000]).error).toBe(HOURLY);
    expect(emu.run('atIn', [-HOUR]).error).toBe(HOURLY);
    expect(emu.run('after', [HOUR]).error).toBeUndefined();
  });
});

describe('an add-on disabled in a document', () => {
  test('its triggers stay but do not fire, and fire again from their next slot once enabled', () => {
    const { a, b } = twoDocuments();
    const id = a.run<string>('hourly').value;
    const [trigger] = a.triggers.triggers;
    const first = trigger.nextRunAt;
    a.setAddOnEnabled(false);
    expect(a.advance(3 * HOUR + 30 * 60_000)).toEqual([]);
    expect(a.run('here').value).toEqual([id]);
    expect(a.store('document').get('ticks')).toBeUndefined();
    // Three runs missed, not made up: the next slot is the fourth.
    expect(trigger.nextRunAt).toBe(first + 3 * HOUR);
    a.setAddOnEnabled(true);
    expect(a.advance(trigger.nextRunAt - a.clock.now() - 1)).toEqual([]);
    expect(a.advance(1)).toHaveLength(1);
    expect(a.store('document').get('ticks')).toBe('1');
    // Disabled in A only: B's trigger fires.
    a.setAddOnEnabled(false);
    b.run('hourly');
    expect(b.advance(HOUR)).toHaveLength(1);
  });

  test('a one-off whose time passes while disabled does not run later', () => {
    const emu = probe(PROBES, { addOn: true });
    emu.run('after', [HOUR]);
    emu.setAddOnEnabled(false);
    expect(emu.advance(2 * HOUR)).toEqual([]);
    emu.setAddOnEnabled(true);
    expect(emu.advance(24 * HOUR)).toEqual([]);
    expect(emu.run('here').value).toEqual([]);
  });
});

describe('a bound script keeps its rules', () => {
  test('many triggers in one document, every 5 minutes and one-offs within the hour, up to 20', () => {
    const emu = probe(PROBES);
    expect(emu.run('every', ['minutes', 5]).error).toBeUndefined();
    expect(emu.run('after', [60_000]).error).toBeUndefined();
    for (let i = 0; i < 18; i++) expect(emu.run('hourly').error).toBeUndefined();
    expect(emu.run('hourly').error).toBe(
      'Exception: This script has too many triggers. Triggers must be deleted from the script before more can be added.',
    );
    expect(emu.run<string[]>('here').value).toHaveLength(20);
    expect(emu.advance(60_000).map((r) => r.error)).toEqual([undefined]);
  });
});
