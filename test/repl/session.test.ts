import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { testRepl, WORLD } from './helpers.ts';
import { LineGrouper } from '../../src/repl/input.ts';
import { BUILTINS } from '../../src/builtins/index.ts';
import { statusInfo } from '../../src/repl/status.ts';

describe('evaluating code', () => {
  it('runs statements and echoes expressions in repr form', () => {
    const r = testRepl(null);
    expect(r.say('x = 5')).toEqual([]);
    expect(r.say('print (x * 2)')).toEqual([{ kind: 'print', text: '10', t: 0 }]);
    expect(r.say('x')).toEqual([{ kind: 'echo', text: '5' }]);
    expect(r.say('"a"')).toEqual([{ kind: 'echo', text: '"a"' }]);
    expect(r.say('[1, 2]')).toEqual([{ kind: 'echo', text: '[1, 2]' }]);
    expect(r.say('true')).toEqual([{ kind: 'echo', text: 'true' }]);
  });

  it('keeps top-level assignments and definitions between lines', () => {
    const r = testRepl(null);
    r.say('total = 0');
    r.say('for i = 1 to 4 total = total + i endfor');
    expect(r.say('total').map((e) => e.text)).toEqual(['10']);
    expect(r.say('on twice (n)\n  return n * 2\nend').map((e) => e.text)).toEqual(['defined on twice']);
    expect(r.say('twice (total)').map((e) => e.text)).toEqual(['20']);
    // redefining replaces the handler in place
    r.say('on twice (n)\n  return n * 3\nend');
    expect(r.say('twice (1)').map((e) => e.text)).toEqual(['3']);
  });

  it('groups a block over several lines until its terminator', () => {
    const g = new LineGrouper();
    expect(g.push('if 1 < 2 then')).toBeNull();
    expect(g.pending).toBe(true);
    expect(g.push('  print ("yes")')).toBeNull();
    const block = g.push('endif');
    expect(block?.text).toBe('if 1 < 2 then\n  print ("yes")\nendif');
    expect(block?.parsed?.items.map((i) => i.type)).toEqual(['if']);
    expect(g.pending).toBe(false);
    expect(g.push(':loops')).toEqual({ text: ':loops', parsed: null });
    expect(g.push('   ')).toBeNull();
    expect(g.push('print (1)')?.text).toBe('print (1)');

    const r = testRepl(null);
    expect(r.say(block!.text)).toEqual([{ kind: 'print', text: 'yes', t: 0 }]);
  });

  it('runs a group from the parse made while grouping it, without parsing it again', () => {
    const g = new LineGrouper();
    const r = testRepl(null);
    const from = r.log.length;
    // the text given differs from the parsed one: what runs is the parse
    r.s.submit('print ("typed")', g.push('print ("grouped")')!.parsed);
    expect(r.log.slice(from).map((e) => e.text)).toEqual(['grouped']);
    // its syntax errors are named after the group, as when the session parses
    const bad = g.push('print (1 +')!;
    expect(bad.parsed?.errors).toHaveLength(1);
    const from2 = r.log.length;
    r.s.submit(bad.text, bad.parsed);
    expect(r.log.slice(from2).map((e) => e.text.split('\n')[0])).toEqual(['<repl 2>:1:11: syntax error: expected an expression after "+"']);
  });

  it('reports errors as script messages and goes on', () => {
    const r = testRepl(null);
    const compile = r.say('print (nope)');
    expect(compile).toHaveLength(1);
    expect(compile[0].kind).toBe('error');
    expect(compile[0].text).toMatch(/^<repl 1>:1:8: error: unknown variable "nope"/);
    r.say('a = "a"');
    const runtime = r.say('print (1 + a)');
    expect(runtime[0].kind).toBe('error');
    expect(runtime[0].text).toContain('runtime error: cannot add 1 (a number) and "a" (a string)');
    expect(runtime[0].text).toContain('script call stack:');
    const syntax = r.say('print (1 +');
    expect(syntax[0].text).toContain('syntax error');
    for (const e of [...compile, ...runtime, ...syntax]) expect(e.text).not.toMatch(/\n\s+at .*\.(ts|js):\d+/);
    expect(r.say('print ("still here")').map((e) => e.text)).toEqual(['still here']);
    expect(r.s.errorCount).toBe(3);
  });

  it('stops a runaway loop or endless recursion with a script error', () => {
    const r = testRepl(null);
    expect(r.say('while true endwhile')[0].text).toContain('runaway loop: 100000 iterations');
    r.say('on f ()\n  f ()\nend');
    expect(r.say('f ()')[0].text).toContain('call depth over 200');
    expect(r.say('2 * 21').map((e) => e.text)).toEqual(['42']);
  });

  it('echoes the value of a line that waits once its thread finishes', () => {
    const r = testRepl(null);
    expect(r.say('delay (30); 42')).toEqual([]);
    expect(r.s.foregroundAlive()).toBe(true);
    r.run(400);
    expect(r.texts('echo')).toEqual([]);
    r.run(200);
    expect(r.texts('echo')).toEqual(['42']);
    expect(r.s.foregroundAlive()).toBe(false);
  });

  it('stops the threads started from the REPL on interrupt, and only those', () => {
    const r = testRepl();
    expect(r.s.interrupt()).toBe(0);
    r.say('gotoset ("engine"); while true\n  forceupdate ()\nendwhile');
    r.run(100);
    const before = r.s.engine.threadCount;
    expect(r.s.foregroundAlive()).toBe(true);
    expect(r.s.interrupt()).toBe(1);
    expect(r.s.foregroundAlive()).toBe(false);
    expect(r.s.engine.threadCount).toBe(before - 1);
    expect(r.texts('info').at(-1)).toBe('stopped 1 thread started from the REPL');
  });

  it('counts threads spawned by a REPL line as its own', () => {
    const r = testRepl(`
set hall
  on openset
    delay (600)
  end
endset
`);
    r.say('gotoset ("hall")');
    expect(r.s.foregroundIds().size).toBe(1);
    expect(r.s.interrupt()).toBe(1);
    expect(r.s.engine.threadCount).toBe(0);
  });

  it('stops threads parked in a handler that is redefined', () => {
    const r = testRepl(null);
    r.say('on slow ()\n  delay (600)\nend');
    r.say('slow ()');
    expect(r.s.engine.threadCount).toBe(1);
    const out = r.say('on slow ()\n  delay (1)\nend').map((e) => e.text);
    expect(out).toContain('stopped 1 thread running code that was just redefined');
    expect(r.s.engine.threadCount).toBe(0);
  });
});

describe('the world', () => {
  it('runs on the wall clock and logs its events by kind', () => {
    const r = testRepl();
    r.run(2300);
    const kinds = new Set(r.log.map((e) => e.kind));
    expect(kinds).toContain('loop');
    expect(kinds).toContain('print');
    expect(kinds).toContain('walk');
    expect(kinds).toContain('sound');
    expect(kinds).toContain('set');
    const loop = r.log.find((e) => e.kind === 'loop')!;
    expect(loop.t).toBe(2250);
    expect(loop.text).toBe('loop scene "hiss" fired → set engine');
  });

  it('writes a fast loop to the log at most once a second, with a count', () => {
    const r = testRepl(`
set hall
  on openset
    makeloop ("scene", "tick", 2)
  end
  on tick
    makeloop ("scene", "tick", 2)
  end
endset

on startup
  gotoset ("hall")
end
`);
    r.run(2150);
    expect(r.texts('loop')).toEqual([
      'loop scene "tick" fired → set hall',
      'loop scene "tick" fired → set hall (and 9 more times since 0.100s)',
      'loop scene "tick" fired → set hall (and 9 more times since 1.100s)',
    ]);
  });

  it('filters the log by kind and turns world events off', () => {
    const r = testRepl();
    r.say(':filter print');
    const start = r.log.length;
    r.run(2300);
    expect(new Set(r.log.slice(start).map((e) => e.kind))).toEqual(new Set(['print']));
    r.say(':filter all');
    r.run(2300);
    expect(r.log.some((e) => e.kind === 'event')).toBe(true);
    r.say(':filter -event -sound');
    expect(r.s.filter.has('event')).toBe(false);
    expect(r.s.filter.has('loop')).toBe(true);
    expect(r.say(':filter bogus')[0].kind).toBe('error');
    r.say(':trace off');
    const from = r.log.length;
    r.run(2300);
    expect(new Set(r.log.slice(from).map((e) => e.kind))).toEqual(new Set(['print']));
  });

  it(':loops, :crickets, :actors and :threads describe the world', () => {
    const r = testRepl();
    r.run(500);
    const loops = r.say(':loops')[0].text;
    expect(loops).toContain('1/32 loops armed');
    expect(loops).toMatch(/1\s+scene\s+hiss\s+set engine\s+35\s+45\s+1750 ms/);
    const crickets = r.say(':crickets')[0].text;
    expect(crickets).toContain('1/16 crickets');
    expect(crickets).toMatch(/rumble\s+rumblesnd\s+engine/);
    const actors = r.say(':actors')[0].text;
    expect(actors).toMatch(/steward\s+\(\d+, 0, 0\)/);
    expect(actors).toContain('defer to far');
    r.say(':click prop faucet');
    r.run(100);
    const threads = r.say(':threads')[0].text;
    expect(threads).toContain('1 live thread');
    // posted at 500 ms, delivered by the heartbeat at 550 ms, then delay (120) = 2000 ms
    expect(threads).toMatch(/click on prop faucet\s+delay \(\): game time until 2\.550s \(in 1950 ms\)\s+0\.550s/);
    expect(threads).toContain('click (prop faucet) at world.pw:19');
  });

  it(':click delivers a click on the next heartbeat, and names unknown objects', () => {
    const r = testRepl();
    r.say(':click faucet');
    expect(r.texts('print')).toEqual([]);
    r.run(100);
    expect(r.texts('print')).toEqual(['faucet on']);
    expect(r.say(':click prop facet')[0].text).toBe('there is no prop "facet" — did you mean "faucet"?');
    expect(r.say(':click')[0].kind).toBe('error');
  });

  it(':pause freezes the world and :resume goes on from exactly there', () => {
    const r = testRepl();
    r.run(1000);
    r.say(':pause');
    const game = r.gameMs();
    const left = r.s.engine.state.loops[0].left;
    r.wait(5000);
    r.run(1000); // frames do nothing while paused
    expect(r.gameMs()).toBe(game);
    expect(statusInfo(r.s.world).clock).toBe('paused');
    expect(r.s.status()).toContain('clock paused');
    r.say(':resume');
    expect(r.gameMs()).toBe(game);
    r.run(100);
    expect(r.gameMs()).toBeCloseTo(game + 100, 0);
    expect(r.s.engine.state.loops[0].left).toBe(left - 2);
    expect(r.s.status()).toContain('clock running');
  });

  it(':step N advances N heartbeats of game time while paused', () => {
    const r = testRepl();
    r.run(1010);
    r.say(':pause');
    const left = r.s.engine.state.loops[0].left;
    const out = r.say(':step 10');
    expect(out.at(-1)!.text).toBe('stepped 10 heartbeats to game time 1.500s');
    expect(r.gameMs()).toBe(1500);
    expect(r.s.engine.state.loops[0].left).toBe(left - 10);
    r.say(':step 15');
    expect(r.texts('print')).toEqual(['hiss']);
    expect(r.log.find((e) => e.kind === 'loop')!.t).toBe(2250);
    r.wait(3000);
    r.say(':resume');
    r.run(50);
    // the steps are kept, the paused wall span is not
    expect(r.gameMs()).toBeGreaterThanOrEqual(2250);
    expect(r.gameMs()).toBeLessThan(2350);
    expect(r.say(':step x')[0].kind).toBe('error');
  });

  it(':step N draws a frame at each step: frame-paced things move N game frames', () => {
    const r = testRepl('on startup\n  defview ("door", 180)\nend\n\non count\n  while true\n    forceupdate ()\n  endwhile\nend\n');
    r.say('count ()');
    r.run(200);
    r.say(':pause');
    const frame = r.s.engine.state.frame.count;
    r.say('currentscene ("door", 6)');
    r.say(':step 5');
    expect(r.s.engine.state.frame.count).toBe(frame + 5);
    expect(r.say('currentview ()').map((e) => e.text)).toEqual(['"moving"']);
    r.say(':step 1');
    expect(r.say('currentview ()').map((e) => e.text)).toEqual(['"door"']);
    expect(r.s.engine.state.frame.count).toBe(frame + 6);
  });

  it(':load adds objects and handlers to the running world and runs its startup', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-repl-'));
    const file = join(dir, 'extra.pw');
    writeFileSync(
      file,
      'prop lamp\n  property lit = 0\n  on click\n    lit = 1\n    print ("lamp on")\n  end\nendprop\n\non startup\n  print ("extra loaded")\nend\n\non greet (n)\n  return "hi " .. n\nend\n',
    );
    const r = testRepl();
    const out = r.say(`:load ${file}`).map((e) => e.text);
    expect(out).toContain('extra loaded');
    expect(out.some((t) => t.startsWith('defined prop lamp, on greet'))).toBe(true);
    expect(r.say('greet ("you")').map((e) => e.text)).toEqual(['"hi you"']);
    r.say(':click lamp');
    r.run(100);
    expect(r.texts('print')).toContain('lamp on');
    expect(r.say(':load /no/such/file.pw')[0].kind).toBe('error');
  });

  it('starts with an empty world when the files do not load, and says why', () => {
    const r = testRepl('on broken (\n');
    expect(r.log[0].kind).toBe('error');
    expect(r.log[0].text).toContain('world.pw:1');
    expect(r.say('1 + 1').map((e) => e.text)).toEqual(['2']);
  });
});

describe('commands', () => {
  it(':help is generated from the builtin registry', () => {
    const r = testRepl(null);
    const help = r.say(':help')[0].text;
    for (const b of BUILTINS) expect(help).toContain(`${b.name} (`);
    for (const c of ['load', 'loops', 'crickets', 'actors', 'threads', 'pause', 'resume', 'step', 'click', 'filter', 'trace', 'quit']) expect(help).toContain(`:${c}`);
    expect(r.say(':help makeloop')[0].text).toContain('At most 32 slots');
    expect(r.say(':help makelop')[0].text).toContain('did you mean "makeloop"?');
  });

  it('status line fields', () => {
    const r = testRepl();
    r.run(500);
    const s = r.s.status();
    for (const part of ['game 0.5s', 'wall 0.5s', 'frame ', 'fps 60', 'loops 1/32', 'crickets 1/16', 'walking steward', 'threads 0', 'clock running']) expect(s).toContain(part);
    r.say('locktimer ()');
    expect(r.s.status()).toContain('clock locked');
  });

  it('unknown commands suggest a near one; :quit asks to quit', () => {
    const r = testRepl(null);
    expect(r.say(':lops')[0].text).toBe('unknown command :lops — did you mean :loops? (:help lists the commands)');
    let quit = false;
    r.s.onQuit(() => (quit = true));
    r.say(':quit');
    expect(quit).toBe(true);
    expect(r.s.quitRequested).toBe(true);
  });
});

describe('entries the REPL takes', () => {
  it('an entry past its size is refused whole with a message; the rest of its block is skipped, what follows runs', () => {
    const r = testRepl(null);
    const from = r.log.length;
    r.s.enter('if true then');
    for (let i = 0; i < 400; i++) r.s.enter(`  print ("line ${i} of a block far too long for one entry")`);
    r.s.enter('endif');
    const refused = r.log.slice(from).filter((e) => e.kind === 'error');
    expect(refused.length).toBe(1);
    expect(refused[0].text).toMatch(/^this entry is 8,2\d\d characters long and the REPL takes at most 8,192 at once: nothing of it ran\. Put long code in a file and :load it\.$/);
    expect(r.texts('print')).toEqual([]);
    r.s.enter('print ("after")');
    expect(r.texts('print')).toEqual(['after']);
    r.s.enter('x'.repeat(9000));
    expect(r.log.at(-1)!.text).toMatch(/^this entry is 9,000 characters long/);
    r.s.enter('print ("and after that")');
    expect(r.texts('print')).toEqual(['after', 'and after that']);
  });
});

describe(':save and :restore', () => {
  it('a world restored from :save goes on exactly as it would have', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-repl-save-'));
    const file = join(dir, 'world.json');
    const a = testRepl();
    a.run(3000);
    a.say('prop faucet_click_marker\nendprop');
    a.say(`:click prop faucet`);
    a.run(500);
    expect(a.say(`:save ${file}`)[0].text).toMatch(/^saved the world at game time/);
    const saved = a.texts('print').length;
    a.run(4000);
    const after = a.texts('print').slice(saved);

    const b = testRepl();
    b.say('prop faucet_click_marker\nendprop');
    expect(b.say(`:restore ${file}`)[0].text).toMatch(/^restored the world saved at game time 3\.5/);
    const before = b.texts('print').length;
    b.run(4000);
    expect(b.texts('print').slice(before)).toEqual(after);
    expect(after).toContain('faucet off');
  });

  it('a world saved while paused is saved running: restored, its clock moves again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-repl-save-'));
    const file = join(dir, 'world.json');
    const a = testRepl();
    a.run(1000);
    a.say(':pause');
    a.say(`:save ${file}`);
    expect(a.s.engine.state.clock.saveDepth).toBe(1); // the pause still holds this world
    const saved = JSON.parse(readFileSync(file, 'utf8')).body.world.clock;
    expect(saved.saveDepth).toBe(0);
    a.say(':resume');
    const game = a.gameMs();
    a.say(`:restore ${file}`);
    a.run(500);
    expect(a.gameMs()).toBeCloseTo(game + 500, 0);

    // restored while paused, it stays paused until :resume
    const b = testRepl();
    b.say(':pause');
    b.say(`:restore ${file}`);
    const at = b.gameMs();
    b.run(500);
    expect(b.gameMs()).toBe(at);
    b.say(':resume');
    b.run(500);
    expect(b.gameMs()).toBeCloseTo(at + 500, 0);
    expect(b.s.engine.state.clock.saveDepth).toBe(0);
  });

  it('says when the snapshot needs what was defined at the prompt, which no file holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-repl-save-'));
    const plain = testRepl();
    plain.run(500);
    const quiet = plain.say(`:save ${join(dir, 'plain.json')}`);
    expect(quiet.map((e) => e.kind)).toEqual(['info']);
    const typed = testRepl();
    typed.say('on greet\n  print ("hi")\nend');
    typed.say('score = 3');
    const said = typed.say(`:save ${join(dir, 'typed.json')}`);
    expect(said[0].text).toMatch(/^saved the world/);
    expect(said[1].kind).toBe('warning');
    expect(said[1].text).toBe(
      'the snapshot needs what was defined at the prompt (on greet, global score), which is in no file: only this session can :restore it. Put those definitions in a file and :load it for a snapshot that pw run --restore can continue.',
    );
  });

  it('refuses a snapshot whose threads wait in handlers these scripts lack or changed, and leaves the world as it was', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-repl-save-'));
    const file = join(dir, 'world.json');
    const a = testRepl();
    a.say(':click prop faucet');
    a.run(1000); // the faucet's click handler waits in its delay
    a.say(`:save ${file}`);
    const b = testRepl(null);
    b.say('x = 1');
    const r = b.say(`:restore ${file}`);
    expect(r[0].kind).toBe('error');
    expect(r[0].text).toMatch(/waits in handler prop faucet\/click, which these scripts do not have/);
    expect(b.say('x').map((e) => e.text)).toEqual(['1']);
    const c = testRepl(WORLD.replace('delay (120)', 'delay (121)'));
    c.say('x = 2');
    const changed = c.say(`:restore ${file}`);
    expect(changed[0].kind).toBe('error');
    expect(changed[0].text).toMatch(/waits in handler prop faucet\/click \(world\.pw:17\), which has changed since the snapshot was saved/);
    expect(c.say('x').map((e) => e.text)).toEqual(['2']);
    writeFileSync(file, '{"checksum":"0","body":{}}');
    expect(a.say(`:restore ${file}`)[0].text).toMatch(/changed or damaged/);
  });
});

describe('walltime () in the REPL', () => {
  it('is whole milliseconds, as headless prints it, whatever fraction the real clock reads', () => {
    const r = testRepl(null);
    r.run(1000);
    r.wait(0.37);
    const shown = r.say('print (walltime ())').map((e) => e.text);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^\d+$/);
    r.run(500);
    r.wait(2.71);
    expect(r.say('print (walltime ())')[0].text).toMatch(/^\d+$/);
  });
});
