// The recorder: a world driven by the package's World on its own frames, with every kind
// of input a host gives, written as an oracle; pw check's checker passes it, and an
// edited expectation fails.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { compile, OracleRecorder, World, type TraceEvent } from '../../src/api/index.ts';
import { checkOracleFile } from '../../src/oracle/check.ts';

const HALL = `set hall
  property seen = 0
  on key (name)
    print ("key " .. name .. " at " .. gametime () .. ", seen " .. seen)
  end
  on knock (who, times)
    print (who .. " knocks " .. times .. " times")
  end
endset

on startup
  gotoset ("hall")
  defsound ("clock", 60000)
  playsound ("clock")
  answer = ask ("vlad", "in?")
  print ("vlad says " .. answer .. " at " .. gametime ())
  ask ("vlad", "and now?")
  print ("never")
end
`;

const DOOR = `prop door
  on click
    print ("door at " .. gametime ())
    x = 1 + [1]
  end
endprop

on startup
  while not stilldown () delay (1) endwhile
  print ("mouse down by " .. gametime ())
end
`;

const FILES = [
  { name: 'hall.pw', text: HALL },
  { name: 'door.pw', text: DOOR },
];
const BUILTINS = { ask: { params: ['who', 'question'], waits: true } };

/** The world run on frames at 60 fps for `ms`, the host acting at the given game times. */
function recorded(ms: number, acts: Record<number, (w: World) => void>): { text: string; events: TraceEvent[] } {
  const recorder = new OracleRecorder({ about: 'a recorded world', scripts: FILES, oracleName: 'rec.oracle', keepGoing: true, seed: 1, fps: 60 });
  const events: TraceEvent[] = [];
  const world = new World(compile(FILES, { builtins: BUILTINS }), {
    keepGoing: true,
    host: {
      trace: (ev) => {
        events.push(ev);
        recorder.observe(ev);
      },
    },
  });
  world.start();
  const due = Object.entries(acts).map(([t, act]) => ({ t: Number(t), act }));
  for (let k = 1; (k * 1000) / 60 <= ms; k++) {
    for (const d of due.filter((d) => d.t <= world.gameTime)) {
      d.act(world);
      due.splice(due.indexOf(d), 1);
    }
    world.frame();
  }
  return { text: recorder.oracle(world.gameTime), events };
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pw-recorder-'));
  writeFileSync(join(dir, 'pocketwatch.json'), JSON.stringify({ builtins: BUILTINS }));
  return dir;
}

describe('OracleRecorder', () => {
  const { text, events } = recorded(2000, {
    300: (w) => w.answer(1, 'yes'),
    400: (w) => w.key('down', 'space'),
    420: (w) => w.key('up', 'space'),
    600: (w) => w.set('set hall', 'seen', 3),
    700: (w) => w.send('set hall', 'knock', 'olga', 2),
    900: (w) => w.click('prop door'),
    1200: (w) => w.mouse('down'),
    1300: (w) => w.mouse('up'),
  });

  it('writes each input at the game time it was delivered, and holds a request left open', () => {
    const head = text.slice(0, text.indexOf('\n\n'));
    expect(head.split('\n')).toEqual([
      '-- oracle: a recorded world',
      `-- until: ${text.match(/-- until: (\d+)ms/)![1]}ms`,
      '-- keep-going: yes',
      // each posted on a heartbeat, delivered on the next
      '-- answer: 350 1 "yes"',
      '-- key: 450 down space',
      '-- key: 450 up space',
      '-- set: 650 set hall seen 3',
      '-- send: 750 set hall knock "olga" 2',
      '-- click: 950 prop door',
      '-- mouse: 1250 down',
      '-- mouse: 1350 up',
      expect.stringMatching(/^-- answer: \d+ 2 null$/),
    ]);
    // the scripts follow the header, and an error in them names the oracle's own line
    expect(text).toContain(`\n\n${HALL}${DOOR}== expect\n`);
    const doorLine = text.split('\n').indexOf('    x = 1 + [1]') + 1;
    expect(text).toContain(`"at":"rec.oracle:${doorLine}:`);
    // the clock sound, still sounding, is cut by the end of the run
    expect(text.trimEnd().split('\n').pop()).toMatch(/^\{"t":\d+,"ev":"soundend","slot":1,"sound":"clock","cut":"run ended"\}$/);
    expect(events.some((e) => e.ev === 'print' && e.text === 'never')).toBe(false);
  });

  it('gives an oracle that pw check passes, and fails once its expectation is edited', () => {
    const dir = folder();
    const file = join(dir, 'rec.oracle');
    writeFileSync(file, text);
    const passed = checkOracleFile(file);
    expect(passed.problem).toBeNull();
    expect(passed.divergence).toBeNull();
    expect(passed.ok).toBe(true);
    expect(passed.expected.length).toBeGreaterThan(20);
    writeFileSync(file, text.replace('olga knocks 2 times', 'olga knocks 3 times'));
    const failed = checkOracleFile(file);
    expect(failed.ok).toBe(false);
    expect(failed.divergence?.expected?.event).toMatchObject({ ev: 'print', text: 'olga knocks 3 times' });
    expect(readFileSync(file, 'utf8')).toContain('olga knocks 3 times');
  });
});
