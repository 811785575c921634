/**
 * dev/child.ts's startChild, which tests, benchmarks and the workbench start the service and the
 * workbench with: it waits for the ready line with no time limit that load could break, and a
 * start that fails (the child exits, prints an error, or is told to stop before it is ready) kills
 * the child and what it started before it rejects, so nothing is left behind.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild, stopChildren } from '../../../dev/child';

const FIXTURE = 'test/helpers/child-fixture.ts';
const READY = /READY=(\S+)/;

/** Running: it exists and is not a zombie waiting to be reaped (which has ended). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).includes('Z');
  } catch {
    return false;
  }
}

/** The child's and the grandchild's ids, from the output a failure quotes or the fixture printed. */
const pidsIn = (text: string): number[] => (/PIDS=(\d+),(\d+)/.exec(text) ?? []).slice(1).map(Number);

/** The failure of a start that must fail, with the ids of what it had started. */
async function failedStart(args: string[], signal?: AbortSignal): Promise<{ message: string; pids: number[] }> {
  const error = await startChild(FIXTURE, args, READY, 'fixture', { signal }).then(
    () => new Error('it started'),
    (e: Error) => e,
  );
  return { message: error.message, pids: pidsIn(error.message) };
}

/** The ids the fixture wrote to `file`, once it has (a wait for the condition, not for a time). */
async function pidsWritten(file: string): Promise<number[]> {
  while (!existsSync(file) || pidsIn(readFileSync(file, 'utf8')).length < 2)
    await new Promise((r) => setTimeout(r, 50));
  return pidsIn(readFileSync(file, 'utf8'));
}

/** Ids of processes still running, after a moment for SIGKILLed ones to be reaped (never a wait for a result). */
async function left(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 50 && pids.some(running); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(running);
}

describe('a failed start leaves no process behind', () => {
  test('a child that exits before its ready line: the start fails saying so, and what it started is killed too', async () => {
    const { message, pids } = await failedStart(['exit']);
    expect(message).toMatch(/^fixture did not start: it exited with 3\. Its output: PIDS=/);
    expect(pids).toHaveLength(2);
    expect(await left(pids)).toEqual([]);
  });

  test('a child that prints an error and stays: the start fails on the error, child and grandchild killed', async () => {
    const { message, pids } = await failedStart(['error']);
    expect(message).toContain('fixture did not start: it printed an error.');
    expect(message).toContain('Error: the fixture could not open its port');
    expect(pids).toHaveLength(2);
    expect(await left(pids)).toEqual([]);
  });

  test('a child that never prints its ready line is waited for, with no time limit, until told to stop; then nothing is left', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'child-')), 'pids');
    const stop = new AbortController();
    const started = failedStart(['silent', file], stop.signal);
    const pids = await pidsWritten(file);
    expect(pids.every(running)).toBe(true);
    stop.abort();
    const { message } = await started;
    expect(message).toMatch(
      /^fixture did not start: told to stop before it printed its ready line\. Its output: PIDS=/,
    );
    expect(await left(pids)).toEqual([]);
  });

  test('a start still waiting when the test file ends is ended by stopChildren (test/helpers/children.ts)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'child-')), 'pids');
    const pending = failedStart(['silent', file]);
    const pids = await pidsWritten(file);
    await stopChildren();
    expect((await pending).message).toContain('told to stop before it printed its ready line');
    expect(await left(pids)).toEqual([]);
  });
});

test('a started child is stopped with what it started; stopChildren ends those a failed test left running', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'child-'));
  const first: Child = await startChild(FIXTURE, ['ready', join(dir, 'first')], READY, 'fixture');
  await startChild(FIXTURE, ['ready', join(dir, 'second')], READY, 'fixture');
  expect(first.ready).toBe('ok');
  const pids = [...(await pidsWritten(join(dir, 'first'))), ...(await pidsWritten(join(dir, 'second')))];
  expect(pids.every(running)).toBe(true);
  await first.stop('SIGTERM');
  expect(await left(pids.slice(0, 2))).toEqual([]);
  await stopChildren();
  expect(await left(pids)).toEqual([]);
});
