/**
 * Which globals an execution may run: only functions the script defined. The bundle's global is an
 * ordinary object holding its built-ins (eval, parseInt) as own properties; none of them is a script
 * function, in a sequential run, from a sidebar (google.script.run) or in a concurrent worker.
 */
import { ScriptRunHost } from '../../../dev/emulator/hosts';
import { Emulator } from '../../../dev/emulator/runtime';

const code = `function echo(x) { return x; }\nfunction escape(x) { return 'mine: ' + x; }`;

describe("only the script's own functions run, as in Apps Script", () => {
  test('a built-in of the global is not a script function (sequential run)', () => {
    const emu = new Emulator({ code });
    expect(emu.run('parseInt', ['42']).error).toBe('Script function not found: parseInt');
    expect(emu.run('eval', ['1 + 1']).error).toBe('Script function not found: eval');
    // The script's own functions run, one that takes a built-in's name too.
    expect(emu.run('echo', [7]).value).toBe(7);
    expect(emu.run('escape', ['x']).value).toBe('mine: x');
  });

  test('a sidebar cannot have the server evaluate code it sends (google.script.run.eval)', async () => {
    const host = new ScriptRunHost(new Emulator({ code }));
    await expect(
      host.call('eval', ['PropertiesService.getScriptProperties().setProperty("x", "pwned"); "ran"']),
    ).rejects.toThrow('Script function not found: eval');
  });

  test('a concurrent execution (worker) does not run a built-in either', async () => {
    const emu = new Emulator({ code });
    const [r] = await emu.runConcurrently([{ name: 'eval', args: ['6 * 7'] }]);
    expect(r.error).toBe('Script function not found: eval');
  });
});
