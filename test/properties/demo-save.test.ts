// Saving the demo world mid-scene: at 37.25 s, and at moments chosen so that the
// landlady is mid-sentence, the steward mid-turn and the fight's fade mid-ramp. The
// restored run must print and trace exactly what the uninterrupted 120 s run does.
import { describe, it, expect } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readSources } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import { runHeadless, continueHeadless, createHeadlessEngine } from '../../src/hosts/headless.ts';
import { decodeSnapshot, readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import type { TraceEvent } from '../../src/trace/events.ts';
import type { Engine } from '../../src/engine/engine.ts';
import { pwHere } from '../support/cli.ts';

const UNITS = 3;
const program = loadProgram(readSources(['scripts'])).program!;

function record(into: string[]) {
  return { print: (t: string) => into.push('out ' + t), diagnostic: (_d: unknown, f: string) => into.push('err ' + f), trace: (e: TraceEvent) => into.push(JSON.stringify(e)) };
}

function saveAndRestore(saveMs: number, inspect: (e: Engine) => void): string[] {
  const out: string[] = [];
  const a = runHeadless(program, record(out), { fps: 60, seed: 1, until: saveMs * UNITS, savedAfter: true });
  inspect(a.engine);
  const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, { kind: 'headless', fps: 60, nextFrame: a.nextFrame, files: ['scripts'], seed: 1, loopGuard: 100000, input: [] });
  const r = readSnapshot(text, program);
  const e = createHeadlessEngine(program, record(out), { fps: 60, seed: 1 });
  e.adopt(r.state, r.threads);
  continueHeadless(e, { fps: 60, seed: 1, until: 120_000 * UNITS }, r.host.nextFrame);
  return out;
}

describe('saving the demo world mid-scene', () => {
  const full: string[] = [];
  runHeadless(program, record(full), { fps: 60, seed: 1, until: 120_000 * UNITS });

  it('at 37.25 s', () => {
    expect(saveAndRestore(37_250, () => {})).toEqual(full);
  });

  it('while the landlady is mid-sentence', () => {
    const out = saveAndRestore(21_000, (e) => expect(e.state.sound.slots[1]?.source).toMatch(/^cricket:/));
    expect(out).toEqual(full);
  });

  it('while the steward is mid-turn', () => {
    // find a heartbeat where the steward is turning, from the uninterrupted run's state
    const probe = runHeadless(program, { print: () => {}, diagnostic: () => {} }, { fps: 60, seed: 1, until: 1 });
    let at = 0;
    for (let ms = 50; ms < 20_000 && at === 0; ms += 50) {
      continueHeadless(probe.engine, { fps: 60, seed: 1, until: ms * UNITS }, probe.engine.state.frame.display + 1);
      const w = probe.engine.state.actors.steward?.walk;
      if (w?.turning && ms > 1000) at = ms;
    }
    expect(at).toBeGreaterThan(0);
    const out = saveAndRestore(at, (e) => expect(e.state.actors.steward.walk?.turning).toBe(true));
    expect(out).toEqual(full);
  });

  it('while the fight fades the engine room back in', () => {
    const fade = full.map((l) => (l.startsWith('{') ? (JSON.parse(l) as TraceEvent) : null)).find((ev) => ev?.ev === 'fade' && ev.steps === 240);
    expect(fade).toBeDefined();
    const mid = (fade!.t as number) + 2000;
    // a fade runs on the wall clock: its thread waits on the wall
    const out = saveAndRestore(mid, (e) => expect(e.liveThreads().some((t) => t.wait?.kind === 'wall')).toBe(true));
    expect(out).toEqual(full);
  });
});

describe('malformed snapshots with a valid checksum', () => {
  it('are refused whole with a message, never half-loaded', () => {
    // saved at the first moment a thread waits, so its frames and registers are in the file
    const a = runHeadless(program, { print: () => {}, diagnostic: () => {} }, { fps: 60, seed: 1, until: 1 });
    for (let ms = 50; ms < 60_000 && a.engine.threadsForSave().length === 0; ms += 50) {
      Object.assign(a, continueHeadless(a.engine, { fps: 60, seed: 1, until: ms * UNITS }, a.engine.state.frame.display + 1));
    }
    expect(a.engine.threadsForSave().length).toBeGreaterThan(0);
    const good = writeSnapshot(a.engine.state, a.engine.threadsForSave(), program, { kind: 'headless', fps: 60, nextFrame: a.nextFrame, files: ['scripts'], seed: 1, loopGuard: 100000, input: [] });
    const resign = (edit: (body: Record<string, any>, host: Record<string, unknown>) => void): string => {
      const outer = JSON.parse(good) as { body: Record<string, any> };
      edit(outer.body, outer.body.host);
      const body = JSON.stringify(outer.body);
      return `{"checksum":"${createHash('sha256').update(body).digest('hex')}","body":${body}}\n`;
    };
    expect(() =>
      readSnapshot(
        resign((b) => (b.globals = 5)),
        program,
      ),
    ).toThrow(/globals should be an object/);
    expect(() =>
      readSnapshot(
        resign((b) => delete b.world.clock),
        program,
      ),
    ).toThrow(/world\.clock is missing/);
    expect(() =>
      readSnapshot(
        resign((b) => b.threads.push({ id: 99, stack: 7 })),
        program,
      ),
    ).toThrow(/malformed: its threads\[1\]/);
    expect(() =>
      readSnapshot(
        resign((b) => (b.world.loops = 'x')),
        program,
      ),
    ).toThrow(/world\.loops should be a list/);
    // parts the engine reads at once: each bad one used to fail inside the run, as a JavaScript error
    expect(() =>
      readSnapshot(
        resign((b) => (b.world.sound = { slots: 5, voice: null })),
        program,
      ),
    ).toThrow(/world\.sound\.slots should be a list/);
    expect(() =>
      readSnapshot(
        resign((b) => (b.world.stepper = {})),
        program,
      ),
    ).toThrow(/world\.stepper\.config is missing/);
    expect(() =>
      readSnapshot(
        resign((b) => (b.world.random.script = {})),
        program,
      ),
    ).toThrow(/world\.random\.script\.ah is missing/);
    expect(() =>
      readSnapshot(
        resign((b) => (b.threads[0].resume = 'nosuchbuiltin')),
        program,
      ),
    ).toThrow(/wakes with nosuchbuiltin|at a call that does not wait/);
    expect(() =>
      readSnapshot(
        resign((b) => (b.threads[0].frames = b.threads[0].frames.map(String))),
        program,
      ),
    ).toThrow(/threads\[0\]\.frames\[0\] should be an object/);
    expect(() =>
      readSnapshot(
        resign((b) => (b.threads[0].frames[0].at = -5)),
        program,
      ),
    ).toThrow(/threads\[0\]\.frames\[0\]\.at should be a whole number from -1/);
    // the host settings are checked as strictly: the run would go on with them
    for (const edit of [
      (h: Record<string, unknown>) => (h.fps = 'abc'),
      (h: Record<string, unknown>) => (h.input = 5),
      (h: Record<string, unknown>) => (h.input = [{ at: 1, click: 7 }]),
      (h: Record<string, unknown>) => (h.files = [3]),
      (h: Record<string, unknown>) => (h.nextFrame = -1),
    ]) {
      expect(() =>
        readSnapshot(
          resign((_b, h) => edit(h)),
          program,
        ),
      ).toThrow(/malformed: its host\./);
      expect(() => decodeSnapshot(resign((_b, h) => edit(h)))).toThrow(/malformed: its host\./);
    }
    expect(() => decodeSnapshot(resign((_b, h) => Object.keys(h).forEach((k) => delete h[k])))).toThrow(/malformed: its host\.kind is missing/);
  });
});

describe('pw run --save / --restore', () => {
  it('continues the demo world byte for byte, and refuses a snapshot with one byte changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-save-'));
    const pw = (args: string[]) => pwHere(args, process.cwd());
    const snap = join(dir, 'w.json');
    const whole = await pw(['run', 'scripts', '--until', '120s', '--trace', join(dir, 'full.jsonl')]);
    const first = await pw(['run', 'scripts', '--until', '37.25s', '--save', snap, '--trace', join(dir, 'a.jsonl')]);
    const second = await pw(['run', '--restore', snap, '--until', '120s', '--trace', join(dir, 'b.jsonl')]);
    expect(second.code).toBe(0);
    expect(first.stdout + second.stdout).toBe(whole.stdout);
    expect(readFileSync(join(dir, 'a.jsonl'), 'utf8') + readFileSync(join(dir, 'b.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'full.jsonl'), 'utf8'));

    const text = readFileSync(snap, 'utf8');
    const i = text.indexOf('"now":') + 6;
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, text.slice(0, i) + (text[i] === '1' ? '2' : '1') + text.slice(i + 1));
    const refused = await pw(['run', '--restore', broken, '--until', '120s']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/changed or damaged/);
  });
});
