/**
 * The run log on a spreadsheet whose log sheet's header lacks one of the log's columns (the analyst
 * deleted the "Kept" column): a new run's values land under their own column names, the missing
 * name is added at the right end, and the rows already logged do not move.
 */
import { addin } from '../../helpers/addin';
import { runImport, saveImport, sheet } from '../../helpers/imports';
import { servicesForThisFile } from '../../helpers/service';
import { RUN_LOG, RUN_LOG_HEADER } from '../../../src/import/end';

const services = servicesForThisFile(1, ['--partners', '30']);

test('a log header without one of its columns: each value under its own name, nothing moved', () => {
  const a = addin(services[0].url);
  const trimmed = RUN_LOG_HEADER.filter((name) => name !== 'Kept');
  const log = a.emu.workbook.addSheet(RUN_LOG);
  trimmed.forEach((name, c) => log.set(0, c, name));
  trimmed.forEach((name, c) => log.set(1, c, `old ${name}`));
  const id = saveImport(a.emu, { sheetName: 'Partners', fields: ['id', 'fullName'] });
  const last = runImport(a.emu, id).pop();
  expect(last?.status).toBe('done');
  const rows = sheet(a.emu, RUN_LOG);
  expect(rows[0]).toEqual([...trimmed, 'Kept']);
  expect(rows[1].slice(0, trimmed.length)).toEqual(trimmed.map((name) => `old ${name}`));
  const byName = (name: string) => rows[2][rows[0].indexOf(name)];
  expect(byName('Outcome')).toBe('done');
  expect(byName('Kept')).toBe(last?.rows);
  expect(byName('Read')).toBe(last?.rows);
  expect(String(byName('Message'))).toMatch(/^Imported \d+ active limited partners into "Partners"\./);
});
