// The ink UI, rendered into a fake terminal.
import { afterEach, describe, expect, it } from 'vitest';
import React from 'react';
import { render, cleanup } from 'ink-testing-library';
import { ReplApp, REFRESH_MS, capEntries, packFields } from '../../src/repl/ui.tsx';
import { ReplSession } from '../../src/repl/session.ts';
import { WORLD } from './helpers.ts';

const tick = (ms = 20): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits (briefly) until the UI shows what the test expects; a loaded machine may be slow to render. */
async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await tick(10);
}

function setup(): { session: ReplSession; ui: ReturnType<typeof render>; advance(ms: number): void } {
  let t = 0;
  const session = new ReplSession({ wall: { now: () => t }, timer: false, sources: [{ file: 'world.pw', source: WORLD }] });
  const ui = render(React.createElement(ReplApp, { session }));
  return {
    session,
    ui,
    advance(ms) {
      for (let i = 0; i < Math.round((ms * 60) / 1000); i++) {
        t += 1000 / 60;
        session.world.frame();
      }
    },
  };
}

async function type(ui: ReturnType<typeof render>, text: string): Promise<void> {
  const frames = ui.frames.length;
  ui.stdin.write(text);
  await until(() => ui.frames.length > frames);
  await tick();
}

afterEach(() => cleanup());

describe('the REPL in a terminal', () => {
  it('shows the prompt and a status line with every field', async () => {
    const { ui } = setup();
    await tick();
    const frame = ui.lastFrame()!;
    expect(frame).toMatch(/^pw>/m);
    for (const part of ['game', 'wall', 'frame', 'fps', 'loops 1/32', 'crickets 1/16', 'walking steward', 'threads', 'clock running']) expect(frame).toContain(part);
    expect(frame).toContain('entered set engine');
  });

  it('typing a line and Enter runs it and echoes the result', async () => {
    const { ui } = setup();
    await tick();
    await type(ui, 'print (6 * 7)');
    expect(ui.lastFrame()).toContain('pw> print (6 * 7)');
    await type(ui, '\r');
    const lines = ui.lastFrame()!.split('\n');
    const at = lines.findIndex((l) => l.includes('pw> print (6 * 7)'));
    expect(lines[at + 1]).toContain('42');
    await type(ui, '[1, "a"]\r');
    expect(ui.lastFrame()).toContain('[1, "a"]');
  });

  it('keeps a block open with a continuation prompt until its terminator', async () => {
    const { ui } = setup();
    await tick();
    await type(ui, 'for i = 1 to 2\r');
    expect(ui.lastFrame()!).toMatch(/^\.\.\.$/m);
    await type(ui, 'print (i * 100)\r');
    await type(ui, 'endfor\r');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('100');
    expect(frame).toContain('200');
    expect(frame).not.toMatch(/^\.\.\.$/m);
    expect(frame).toMatch(/^pw>$/m);
  });

  it('recalls history with the up arrow', async () => {
    const { ui } = setup();
    await tick();
    await type(ui, 'x = 41\r');
    await type(ui, 'x + 1\r');
    await type(ui, '\u001b[A');
    await type(ui, '\u001b[A');
    const prompt = ui
      .lastFrame()!
      .split('\n')
      .filter((l) => l.startsWith('pw> '))
      .at(-1);
    expect(prompt).toContain('x = 41');
  });

  it('updates the status line as the world runs', async () => {
    const { ui, advance } = setup();
    await tick();
    advance(1500);
    await tick(REFRESH_MS);
    await until(() => ui.lastFrame()!.includes('game 1.5s'));
    expect(ui.lastFrame()).toContain('game 1.5s');
  });

  it('Ctrl-C stops the running script, then a second one quits', async () => {
    const { ui, session } = setup();
    await tick();
    await type(ui, 'while true forceupdate () endwhile\r');
    expect(session.foregroundAlive()).toBe(true);
    await type(ui, '\u0003');
    expect(session.foregroundAlive()).toBe(false);
    expect(ui.lastFrame()).toContain('stopped 1 thread');
    expect(session.quitRequested).toBe(false);
    await type(ui, '\u0003');
    expect(session.quitRequested).toBe(true);
  });

  it('Ctrl-C with nothing running prints a hint; Ctrl-D on an empty line quits', async () => {
    const { ui, session } = setup();
    await tick();
    await type(ui, '\u0003');
    expect(ui.lastFrame()).toContain('no script running');
    await type(ui, '\u0004');
    expect(session.quitRequested).toBe(true);
  });

  it('Ctrl-C and Ctrl-D read in one burst with the text typed before them still act, in their place', async () => {
    const { ui, session } = setup();
    await tick();
    // a busy REPL reads what was typed meanwhile as one piece of input
    await type(ui, 'while true forceupdate () endwhile\r\u0003print (6 * 7)\r');
    expect(session.foregroundAlive()).toBe(false);
    expect(ui.lastFrame()).toContain('stopped 1 thread');
    expect(ui.lastFrame()).toMatch(/^ +[\d.]+s 42$/m);
    expect(session.quitRequested).toBe(false);
    await type(ui, 'x\u0004');
    // not at an empty line: it deletes under the cursor, and the line keeps its x
    expect(session.quitRequested).toBe(false);
    expect(ui.lastFrame()).toContain('pw> x');
    await type(ui, '\u0015print (1)\r\u0004');
    expect(session.quitRequested).toBe(true);
  });

  it('a paste of several lines shows each line and what it printed or returned, in order, errors included', async () => {
    const { ui } = setup();
    await tick();
    await type(ui, 'print ("one")\r2 + 2\rprint (nope)\rprint ("four")\r');
    await until(() => ui.lastFrame()!.includes('four'));
    const lines = ui.lastFrame()!.split('\n');
    const at = (text: string): number => lines.findIndex((l) => l.includes(text));
    const order = ['pw> print ("one")', 'one', 'pw> 2 + 2', '4', 'pw> print (nope)', 'unknown variable "nope"', 'pw> print ("four")'];
    const found = order.map(at);
    expect(
      found.every((i) => i >= 0),
      `${order.filter((_, i) => found[i] < 0).join(' | ')} missing in\n${lines.join('\n')}`,
    ).toBe(true);
    expect(found).toEqual([...found].sort((a, b) => a - b));
    expect(lines.slice(found[6] + 1).some((l) => /\sfour$/.test(l))).toBe(true);
  });

  it('a paste of more than it may hold is refused with one message, and the REPL answers after it', async () => {
    const { ui, session } = setup();
    await tick();
    await type(ui, 'print (1)\r'.repeat(Math.ceil(1_000_000 / 10)));
    expect(ui.lastFrame()!.split('pasted text over 16,384 characters: the rest of it was not taken').length).toBe(2);
    expect(session.foregroundAlive()).toBe(false);
    await tick(200);
    await type(ui, 'print (6 * 7)\r');
    await until(() => ui.lastFrame()!.includes('42'));
    expect(ui.lastFrame()).toContain('42');
  });

  it('a line typed right behind a bracketed paste too big to take is answered, however fast it follows', async () => {
    const { ui, session } = setup();
    await tick();
    // the terminal marks the paste; the key presses queued behind it arrive in the same read
    await type(ui, `\u001b[200~${'print (1)\r'.repeat(20_000)}\u001b[201~print (6 * 7)\r`);
    await until(() => ui.lastFrame()!.includes('42'));
    expect(ui.lastFrame()!.split('pasted text over 16,384 characters: the rest of it was not taken').length).toBe(2);
    expect(ui.lastFrame()).toContain('pw> print (6 * 7)');
    expect(ui.lastFrame()).toMatch(/\s42$/m);
    // the paste's marks are no text
    expect(ui.lastFrame()).not.toContain('[200~');
    expect(session.foregroundAlive()).toBe(false);
  });

  it('marks what is said in the past, and the status line says how far back the world is', async () => {
    const { ui } = setup();
    await tick();
    await type(ui, ':pause\r');
    await type(ui, ':step 50\r');
    expect(ui.lastFrame()).toMatch(/clock paused/);
    await type(ui, ':back 20\r');
    await until(() => ui.lastFrame()!.includes('clock past −1.0s'));
    expect(ui.lastFrame()).toContain('clock past −1.0s');
    expect(ui.lastFrame()).toMatch(/^↺ back 20 heartbeats to game time/m);
    const printed = (): string[] =>
      ui
        .lastFrame()!
        .split('\n')
        .filter((l) => / hiss$/.test(l));
    expect(printed()).toHaveLength(1);
    await type(ui, ':step 20\r');
    await until(() => ui.lastFrame()!.includes('clock paused'));
    // the hiss at 2.25 s as it happened, then again, marked, as the step replays it
    expect(printed()).toEqual([expect.stringMatching(/^ +2\.250s hiss$/), expect.stringMatching(/^↺ +2\.250s hiss$/)]);
    expect(ui.lastFrame()).toMatch(/\(replayed: back at the latest moment\)/);
  });

  it('breaks the status line between fields in a narrow terminal', () => {
    expect(packFields(['game 1.0s', 'wall 1.0s', 'frame 20'], 20)).toBe('game 1.0s  wall 1.0s\nframe 20');
    expect(packFields(['game 1.0s', 'wall 1.0s'], 80)).toBe('game 1.0s  wall 1.0s');
  });
});

describe('the log in a flood', () => {
  it('never leaves out what the REPL says to the author; caps the world events, keeping the latest', () => {
    const world = Array.from({ length: 10 }, (_, i) => ({ kind: 'loop' as const, text: `loop ${i}`, t: i }));
    const entries = [{ kind: 'input' as const, text: 'pw> x' }, ...world.slice(0, 5), { kind: 'echo' as const, text: '1' }, ...world.slice(5)];
    const { shown, left } = capEntries(entries, 3);
    expect(left).toBe(7);
    expect(shown.map((e) => e.text)).toEqual(['pw> x', '1', 'loop 7', 'loop 8', 'loop 9']);
    expect(capEntries(entries, 10).shown).toEqual(entries);
  });
});
