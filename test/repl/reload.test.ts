// Hot reload in a REPL session on virtual time: the files compiled again and swapped
// in under the running world, which keeps everything it holds.
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { testRepl, type TestRepl } from './helpers.ts';
import type { LogEntry } from '../../src/repl/events.ts';

const WORLD = `global visits

set hall
  property hissing = 0
  on openset
    makeloop ("scene", "hiss", 4)
    cricket ("hummer", "hum", 0, 10, 100, 10, 0)
  end
  on hiss
    hissing = hissing + 1
    print ("hiss " .. hissing)
    makeloop ("scene", "hiss", 4)
  end
endset

actor bob
  on endwalk
    print ("bob arrived")
  end
endactor

prop clock
  on click
    delay (120)
    print ("clock done at " .. gametime ())
  end
endprop

prop bell
  on click
    delay (120)
    print ("bell one")
  end
endprop

on startup
  visits = 3
  defsound ("hum", 500)
  defstar ("far", 5000, 0, 0)
  gotoset ("hall")
  walktostar ("bob", "far")
end
`;

const PATCHED = WORLD.replace('print ("hiss " .. hissing)', 'print ("HISS " .. hissing)')
  .replace('print ("bell one")', 'print ("bell two")')
  .replace('  property hissing = 0\n', '  property hissing = 0\n  property volume = 11\n')
  .replace('actor bob\n  on endwalk\n    print ("bob arrived")\n  end\nendactor\n', 'actor bob\nendactor\n\nprop lamp\n  property lit = true\n  on click\n    print ("lamp")\n  end\nendprop\n');

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pw-reload-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const texts = (log: LogEntry[], kind?: string): string[] => log.filter((e) => kind === undefined || e.kind === kind).map((e) => e.text);
const value = (r: TestRepl, expr: string): string => r.say(expr).find((e) => e.kind === 'echo')!.text;

describe(':reload', () => {
  it('swaps the changed handlers in under the running world, keeps what it holds, and says what changed', () => {
    const dir = folder({ 'w.pw': WORLD });
    const r = testRepl(null, { files: [join(dir, 'w.pw')] });
    r.run(1000);
    r.say(':click clock');
    r.say(':click bell');
    r.say('on greet\n  return "hi"\nend');
    r.say('z = 9');
    r.say('delay (90); print ("typed line done")');
    r.run(500);
    const before = { loops: value(r, 'countloops ()'), crickets: value(r, 'countcrickets ()'), bob: value(r, 'actorpos ("bob")'), frame: value(r, 'frame ()') };
    const hisses = texts(r.log, 'print').filter((t) => t.startsWith('hiss ')).length;
    const game = r.gameMs();
    const bell = r.s.engine.liveThreads().find((t) => t.origin === 'click on prop bell')!.id;
    writeFileSync(join(dir, 'w.pw'), PATCHED);
    const said = r.say(':reload');
    const file = join(dir, 'w.pw');
    expect(texts(said, 'output')).toEqual([
      [
        `reloaded ${file}`,
        '  handlers changed: set hall/hiss, prop bell/click',
        '  handlers added: prop lamp/click',
        '  handlers removed: actor bob/endwalk',
        '  properties added: prop lamp.lit = true, set hall.volume = 11',
        `  stopped thread ${bell} (click on prop bell): it was in prop bell/click, which changed`,
      ].join('\n'),
    ]);
    // the world goes on exactly where it was
    expect(r.gameMs()).toBe(game);
    expect(value(r, 'countloops ()')).toBe(before.loops);
    expect(value(r, 'countcrickets ()')).toBe(before.crickets);
    expect(value(r, 'actorpos ("bob")')).toBe(before.bob);
    expect(value(r, 'iswalk ("bob")')).toBe('true');
    expect(Number(value(r, 'frame ()'))).toBe(Number(before.frame));
    expect(value(r, 'visits')).toBe('3');
    // and what was defined at the prompt is still there
    expect(value(r, 'z')).toBe('9');
    expect(value(r, 'greet ()')).toBe('"hi"');
    r.run(2000);
    const prints = texts(r.log, 'print');
    // new deliveries run the new code; the counter goes on
    expect(prints.filter((t) => t.startsWith('HISS '))[0]).toBe(`HISS ${hisses + 1}`);
    expect(prints).toContain('typed line done');
    expect(prints.some((t) => t.startsWith('clock done at '))).toBe(true);
    expect(prints.filter((t) => t.startsWith('bell'))).toEqual([]);
  });

  it('going back before a reload and stepping on replays it: the old code, then the new', () => {
    const dir = folder({ 'w.pw': WORLD });
    const r = testRepl(null, { files: [join(dir, 'w.pw')] });
    r.say(':pause');
    r.say(':step 12');
    writeFileSync(join(dir, 'w.pw'), PATCHED);
    r.say(':reload');
    r.say(':step 12');
    r.say(':back 20');
    const again = texts(r.say(':step 20'), 'print');
    expect(again).toEqual(['hiss 2', 'hiss 3', 'HISS 4', 'HISS 5', 'HISS 6']);
  });

  it('one that does not compile changes nothing and shows the errors', () => {
    const dir = folder({ 'w.pw': WORLD });
    const r = testRepl(null, { files: [join(dir, 'w.pw')] });
    r.run(1000);
    const program = r.s.engine.program;
    writeFileSync(join(dir, 'w.pw'), WORLD.replace('hissing = hissing + 1', 'hissing = hissing + loudness'));
    const said = r.say(':reload');
    expect(said[0]).toMatchObject({ kind: 'error', text: expect.stringMatching(/w\.pw:10:25: error: unknown variable "loudness"\n/) });
    expect(texts(said, 'info')).toEqual(['the reload changed nothing: the world runs on with the scripts it had']);
    expect(r.s.engine.program).toBe(program);
    expect(r.s.history.last).toBe(r.s.history.cursor);
    expect(texts(r.say(':reload'), 'info')).toEqual(['the reload changed nothing: the world runs on with the scripts it had']);
  });

  it('with nothing changed, says so and changes nothing', () => {
    const dir = folder({ 'w.pw': WORLD });
    const r = testRepl(null, { files: [join(dir, 'w.pw')] });
    const program = r.s.engine.program;
    expect(texts(r.say(':reload'))).toEqual(['nothing to reload: the loaded files are as they were']);
    expect(r.s.engine.program).toBe(program);
  });

  it('takes in a file new in a loaded folder and lets go of one gone from it', () => {
    const dir = folder({});
    mkdirSync(join(dir, 'world'));
    writeFileSync(join(dir, 'world', 'a.pw'), 'on one\n  return 1\nend\n');
    const r = testRepl(null, { files: [join(dir, 'world')] });
    writeFileSync(join(dir, 'world', 'b.pw'), 'on two\n  return 2\nend\n');
    rmSync(join(dir, 'world', 'a.pw'));
    const said = texts(r.say(':reload'), 'output')[0];
    expect(said).toContain('handlers added: on two');
    expect(said).toContain('handlers removed: on one');
    expect(value(r, 'two ()')).toBe('2');
  });

  it('a thread in an object loaded twice goes on when its handler did not change', () => {
    const dir = folder({ 'lamp.pw': 'prop lamp\n  on click\n    delay (60)\n    print ("lamp off")\n  end\n  on shade\n    return "green"\n  end\nendprop\n' });
    const r = testRepl(null);
    const lamp = join(dir, 'lamp.pw');
    r.say(`:load ${lamp}`);
    r.say(`:load ${lamp}`);
    r.say(':click lamp');
    r.run(200);
    writeFileSync(lamp, 'prop lamp\n  on click\n    delay (60)\n    print ("lamp off")\n  end\n  on shade\n    return "blue"\n  end\nendprop\n');
    const said = texts(r.say(':reload'), 'output')[0];
    expect(said).toBe(`reloaded ${lamp}\n  handlers changed: prop lamp/shade`);
    r.run(1000);
    expect(texts(r.log, 'print')).toContain('lamp off');
    expect(value(r, 'sendtoprop ("lamp", "shade")')).toBe('"blue"');
  });
});
