// Runs a script's top level once, in a fresh context of a process of its own, with V8's precise
// block coverage on, and prints the script's coverage ranges as JSON (compile.ts, topLevelRun).
// A process of its own because starting and stopping precise coverage changes the whole isolate:
// it deoptimizes every function, gives every closure a feedback vector and resets the coverage of
// anyone else collecting it; none of that may touch a process whose CPU time is being charged.
// The script comes on standard input.
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import vm from 'node:vm';

const source = readFileSync(0, 'utf8');
// V8 names a script's coverage by its last sourceURL: this one, whatever the script names itself.
const url = 'top-level-coverage.js';
const session = new Session();
session.connect();
const post = (method, params = {}) => {
  let answer;
  // A session on this thread answers synchronously.
  session.post(method, params, (error, result) => {
    answer = { error, result };
  });
  if (!answer) throw new Error(`The inspector did not answer ${method}`);
  if (answer.error) throw answer.error;
  return answer.result;
};
post('Profiler.enable');
post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
const script = new vm.Script(`${source}\n//# sourceURL=${url}`, { filename: url });
let threw = false;
try {
  script.runInContext(vm.createContext(vm.constants.DONT_CONTEXTIFY));
} catch {
  // A top level that calls a service stops there in a bare context.
  threw = true;
}
const mine = post('Profiler.takePreciseCoverage').result.find((r) => r.url === url);
if (!mine) throw new Error('V8 reported no coverage of the script');
process.stdout.write(JSON.stringify({ threw, ranges: mine.functions.flatMap((f) => f.ranges) }));
