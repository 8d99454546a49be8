// World behaviour that a single .pw expectation file cannot show: the trace (cricket
// volumes and pans, firing times), several runs compared (seeds, display rates) and
// timed input. Scripts run in-process, the same path as `pw run`.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScript, type ScriptRun } from '../support/run.ts';
import type { TraceEvent } from '../../src/trace/events.ts';

const FPS = [16, 30, 60, 144, 1000];

function ok(r: ScriptRun): ScriptRun {
  expect(r.stderr, r.stderr).toBe('');
  expect(r.exit).toBe(0);
  return r;
}

function shots(r: ScriptRun, name?: string): TraceEvent[] {
  return r.trace.filter((e) => e.ev === 'sound' && e.cricket !== undefined && (name === undefined || e.cricket === name));
}

// An engine room with crickets that draw from the ambient stream; with `noisy`, the
// script also draws from its own stream on every step.
function cricketWorld(noisy: boolean): string {
  return `
set engine
  on openset
    defsound ("rumble", 400)
    defsound ("vent", 300)
    cricket ("rumble", "rumble", 0, 0, 200, 8, 0)
    cricket ("vent", "vent", 30, 40, 200, 10, 30)
    cricket ("drip", "vent", -20, 10, 200, 5, 12)
    ${noisy ? 'makeloop ("scene", "stir", 2)' : ''}
  end
  on stir
    x = random (1000) + random (7)
    makeloop ("scene", "stir", 2 + random (3))
  end
endset
on startup
  gotoset ("engine")
end
`;
}

describe('crickets draw from their own random stream', () => {
  const times = (r: ScriptRun) => shots(r).map((e) => `${e.t} ${e.cricket}`);

  it('fire at the same times whether or not the script calls random', () => {
    const quiet = ok(runScript(cricketWorld(false), { untilText: '30s', seed: 5 }));
    const noisy = ok(runScript(cricketWorld(true), { untilText: '30s', seed: 5 }));
    expect(times(quiet).length).toBeGreaterThan(50);
    expect(times(noisy)).toEqual(times(quiet));
    // and the script's draws did happen in the noisy run
    expect(noisy.trace.some((e) => e.ev === 'loop' && e.event === 'stir')).toBe(true);
  });

  it('fire at other times with another seed; the seamless one does not move', () => {
    const a = ok(runScript(cricketWorld(false), { untilText: '30s', seed: 5 }));
    const b = ok(runScript(cricketWorld(false), { untilText: '30s', seed: 6 }));
    expect(times(b)).not.toEqual(times(a));
    const rumble = (r: ScriptRun) => shots(r, 'rumble').map((e) => e.t);
    expect(rumble(b)).toEqual(rumble(a));
    // jitter 0: the first shot after 8 steps, then back to back with its 400 ms sample
    expect(rumble(a).slice(0, 4)).toEqual([400, 800, 1200, 1600]);
  });

  it('same seed, same firings', () => {
    const a = runScript(cricketWorld(true), { untilText: '30s', seed: 9 });
    const b = runScript(cricketWorld(true), { untilText: '30s', seed: 9 });
    expect(b.trace).toEqual(a.trace);
  });
});

describe('cricket mix: volume and pan from the camera', () => {
  // Camera at the origin facing 90 (toward +z). Each cricket fires once, alone.
  const r = ok(
    runScript(
      `
set yard
  on openset
    defsound ("chirp", 20)
    placecamera (0, 0, 90)
    cricket ("ahead", "chirp", 0, 50, 100, 1, -1)
    cricket ("right", "chirp", 50, 0, 100, 3, -1)
    cricket ("left", "chirp", -30, 0, 100, 5, -1)
    cricket ("onit", "chirp", 0, 0, 100, 7, -1)
    cricket ("edge", "chirp", 0, -100, 100, 9, -1)
    cricket ("far", "chirp", 300, 0, 100, 11, -1)
  end
endset
on startup
  gotoset ("yard")
end
`,
      { untilText: '2s' },
    ),
  );
  const mix = Object.fromEntries(shots(r).map((e) => [e.cricket, [e.t, e.volume, e.pan]]));

  it('falls off linearly to 0 at the radius; pan is the sine of the bearing off the camera facing', () => {
    expect(mix.ahead).toEqual([50, 0.5, 0]);
    expect(mix.right).toEqual([150, 0.5, -1]); // bearing 0, 90 to the camera's right: -1
    expect(mix.left).toEqual([250, 0.7, 1]);
    expect(mix.onit).toEqual([350, 1, 0]);
    expect(mix.edge).toEqual([450, 0, 0]); // straight behind, exactly at the radius
  });

  it('still fires outside its radius, at volume 0', () => {
    expect(mix.far).toEqual([550, 0, -1]);
    expect(Object.keys(mix)).toHaveLength(6);
  });
});

describe('render-rate invariance', () => {
  // Walks chained from endwalk, crickets with jitter, loops re-armed with random
  // periods, delays, a fade and a set change: everything here is on game time.
  const world = `
global log

set engine
  on openset
    defsound ("rumble", 1000)
    defsound ("vent", 350)
    cricket ("rumble", "rumble", 0, 0, 300, 20, 0)
    cricket ("vent", "vent", 40, 30, 300, 30, 25)
    makeloop ("scene", "hiss", 45)
  end
  on hiss
    print ("hiss " .. gametime () .. " slot2 " .. currentsound (2))
    makeloop ("scene", "hiss", 40 + random (20))
  end
endset

set bedsit
  on openset
    print ("bedsit " .. gametime ())
    delay (17)
    screentoblack ("black", 25)
    print ("after fade " .. ticks ())
    gotoset ("engine")
  end
endset

actor steward
  property legs = 0
  on endturn
    pose (self, "walk")
    print ("endturn " .. gametime () .. " " .. actorfacing (self))
  end
  on endwalk
    legs = legs + 1
    print ("endwalk " .. gametime () .. " " .. actorstar (self) .. " " .. str (actorpos (self)))
    if legs = 3 then sendtoflat ("tour", "move") endif
    if actorstar (self) = "fore" then walktostar (self, "aft") else walkonpath (self, "rounds") endif
  end
endactor

flat tour
  on move
    gotoset ("bedsit")
  end
endflat

on startup
  defpose ("walk", 6)
  defstar ("aft", -70, 0, 0)
  defstar ("mid", 10, 0, 45)
  defstar ("fore", 73, 0, -12)
  defpath ("rounds", ["mid", "fore"])
  placeactor ("steward", -70, 0, 0, 200)
  actorspeed ("steward", 3.7)
  actorturn ("steward", 22)
  walkonpath ("steward", "rounds")
  gotoset ("engine")
end
`;
  const runs = FPS.map((fps) => ok(runScript(world, { untilText: '25s', fps, seed: 3 })));
  const logical = (r: ScriptRun) => r.trace.filter((e) => ['print', 'loop', 'endturn', 'endwalk', 'leg', 'sound', 'soundend', 'set', 'fade'].includes(e.ev));

  it('prints the same lines at every display rate', () => {
    expect(runs[0].stdout.filter((l) => l.startsWith('endwalk')).length).toBeGreaterThan(3);
    expect(runs[0].stdout.some((l) => l.startsWith('after fade'))).toBe(true);
    for (const r of runs) expect(r.stdout).toEqual(runs[0].stdout);
  });

  it('walks arrive, crickets fire and loops fire at the same game times at every display rate', () => {
    const base = logical(runs[0]);
    expect(base.filter((e) => e.ev === 'sound').length).toBeGreaterThan(20);
    for (const r of runs) expect(logical(r)).toEqual(base);
  });
});

describe('input between two heartbeat steps', () => {
  const world = `
prop faucet
  property clicks = 0
  on click
    clicks = clicks + 1
    print ("click " .. clicks .. " at " .. gametime ())
    makeloop ("prop", "shutoff", 60)
  end
  on shutoff
    print ("off at " .. gametime ())
  end
endprop
on startup
  makeloop ("prop", "idle", 100, "faucet")
end
`;

  it('is handled exactly once, at the next step (1050 ms), at every display rate', () => {
    const outs = FPS.map((fps) => {
      const r = ok(runScript(world, { untilText: '6s', fps, input: [{ at: 1025, click: 'prop faucet' }] }));
      expect(r.stdout[0], `fps ${fps}`).toBe('click 1 at 1050');
      expect(
        r.stdout.filter((l) => l.startsWith('click')),
        `fps ${fps}`,
      ).toHaveLength(1);
      expect(
        r.trace.filter((e) => e.ev === 'click').map((e) => e.t),
        `fps ${fps}`,
      ).toEqual([1050]);
      return r.stdout;
    });
    // the loop the click armed shuts the faucet off at one game time, whatever the rate
    for (const o of outs) expect(o).toEqual(outs[0]);
    expect(outs[0][1]).toMatch(/^off at \d+$/);
  });

  it('two clicks in the same step are both handled, in order', () => {
    const r = ok(
      runScript(world, {
        untilText: '6s',
        fps: 30,
        input: [
          { at: 1001, click: 'prop faucet' },
          { at: 1049, click: 'prop faucet' },
        ],
      }),
    );
    expect(r.stdout.slice(0, 2)).toEqual(['click 1 at 1050', 'click 2 at 1050']);
    expect(r.stdout.filter((l) => l.startsWith('off'))).toHaveLength(1); // re-arming replaced the loop
  });
});

describe('the demo world (scripts/)', () => {
  const dir = new URL('../../scripts/', import.meta.url).pathname;
  const sources = Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.pw'))
      .sort()
      .map((f) => [`scripts/${f}`, readFileSync(join(dir, f), 'utf8')]),
  );
  const at30 = runScript(sources, { untilText: '120s', fps: 30 });
  const at144 = runScript(sources, { untilText: '120s', fps: 144 });
  const again = runScript(sources, { untilText: '120s', fps: 30 });

  it('runs 120 s without an error or a warning, and is still alive at the end', () => {
    ok(at30);
    expect(at30.errors).toEqual([]);
    expect(at30.engine!.state.now).toBe(120_000 * 3);
    expect(at30.engine!.isQuiet()).toBe(false);
    expect(at30.stdout.at(-1)).toMatch(/^ 120\.00s/);
  });

  it('prints the same at 30 and 144 fps, and the same trace on two runs', () => {
    ok(at144);
    expect(at144.stdout).toEqual(at30.stdout);
    expect(again.stdout).toEqual(at30.stdout);
    expect(again.trace).toEqual(at30.trace);
  });

  it('shows every feature within 120 s', () => {
    const out = at30.stdout.join('\n');
    for (const want of [
      'steam hisses (#1); next in 45 steps',
      'a vent hisses',
      'out of earshot',
      'at the fore end after round 1',
      'And wind your watch',
      'the pocketwatch shows 11:58:15',
      'faucet   click: the water runs (slot 1)',
      'water in slot 2',
      'shuts itself off',
      'the turn took 6 frames, view door',
      'its 3 crickets re-armed themselves',
      'you lose the fight',
      'faded in: 4000 ms for 240 steps',
      'round 2 begins',
    ]) {
      expect(out).toContain(want);
    }
    expect(at30.stdout[2]).toBe('   2.25s  engine   steam hisses (#1); next in 45 steps');
  });

  it('plays the landlady lines one after another in slot 2, never over each other', () => {
    const lines = at30.trace.filter((e) => (e.ev === 'sound' || e.ev === 'soundend') && String(e.sound).startsWith('landlady'));
    expect(lines.map((e) => `${e.ev} ${e.sound}`)).toEqual([1, 2, 3, 4, 5].flatMap((i) => [`sound landlady${i}`, `soundend landlady${i}`]));
    for (let i = 1; i < lines.length; i++) expect(lines[i].t).toBeGreaterThanOrEqual(lines[i - 1].t);
    expect(lines.every((e) => e.slot === 2)).toBe(true);
  });

  it('fires the rumble back to back and the far vent at volume 0', () => {
    const rumble = shots(at30, 'rumble')
      .filter((e) => e.t < 20_000)
      .map((e) => e.t);
    expect(rumble).toEqual([2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000, 18000, 20000].filter((t) => t < 20_000));
    const far = shots(at30, 'farvent');
    expect(far.length).toBeGreaterThan(5);
    expect(far.every((e) => e.volume === 0)).toBe(true);
  });

  it('handles a click from the outside once, at the next heartbeat', () => {
    for (const fps of [30, 144]) {
      const r = ok(runScript(sources, { untilText: '5s', fps, input: [{ at: 1025, click: 'prop faucet' }] }));
      const faucet = r.stdout.filter((l) => l.includes('faucet'));
      expect(faucet[0]).toBe('   1.05s  faucet   click: the water runs (slot 1); it turns itself off in 3 s');
      expect(faucet.slice(1)).toHaveLength(1);
      expect(faucet[1]).toContain('faucet   shuts itself off');
    }
  });
});
