/**
 * A program for the tests of dev/child.ts's startChild: it starts a grandchild of its own (which
 * ignores its parent's end: it only ends when killed), prints both process ids, then behaves as
 * its first argument says (and writes them to the file its second argument names, if any): `exit` (exits with 3 before any ready line), `silent` (never prints
 * its ready line), `error` (prints an error on its error output and stays), `ready` (prints
 * READY=ok and stays).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
console.log(`PIDS=${process.pid},${grandchild.pid}`);
// Also into the file its second argument names, for a test that cannot see its output yet.
if (process.argv[3]) writeFileSync(process.argv[3], `PIDS=${process.pid},${grandchild.pid}`);
const mode = process.argv[2];
const stay = () => setInterval(() => {}, 1000);
if (mode === 'exit') process.exit(3);
else if (mode === 'error') {
  console.error('Error: the fixture could not open its port');
  stay();
} else if (mode === 'ready') {
  console.log('READY=ok');
  stay();
} else stay();
