// Restoring after a patch says what the patch took away: the objects, globals and
// properties the scripts no longer have, each named once, and the saved loops that now
// aim at a handler the scripts lack (they would fire into nothing without a word).
import { describe, it, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSources, type SourceText } from '../../src/node/load.ts';
import { loadProgram } from '../../src/engine/load.ts';
import type { Program } from '../../src/vm/program.ts';
import { runHeadless } from '../../src/hosts/headless.ts';
import { readSnapshot, writeSnapshot } from '../../src/engine/snapshot.ts';
import { compile, World, type Diagnostic } from '../../src/api/index.ts';
import { pwHere } from '../support/cli.ts';

const UNITS = 3;
const root = fileURLToPath(new URL('../..', import.meta.url));

function program(sources: SourceText[]): Program {
  const r = loadProgram(sources);
  if (!r.program) throw new Error(r.diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`).join('\n'));
  return r.program;
}

const demoSources = readSources(['scripts']);
const demo = program(demoSources);

/** The demo's sources with one file edited. */
function patched(file: string, edit: (text: string) => string): SourceText[] {
  return demoSources.map((s) => (s.file === `scripts/${file}` ? { ...s, source: edit(s.source) } : s));
}

/** Without the tour's gobedsit handler, which the loop armed at setup aims at. */
const noGobedsit = patched('world.pw', (t) => {
  const out = t.replace(/ {2}on gobedsit\n[\s\S]*?\n {2}end\n/, '');
  expect(out).not.toBe(t);
  return out;
});
/** Without the steward's actor block (and the startup line that sends him setup). */
const noSteward = [...patched('world.pw', (t) => t.replace('  sendtoactor ("steward", "setup")\n', '')).filter((s) => s.file !== 'scripts/steward.pw')];

function savedAt(ms: number): string {
  const a = runHeadless(demo, { print: () => {}, diagnostic: () => {} }, { fps: 60, seed: 1, until: ms * UNITS, savedAfter: true });
  return writeSnapshot(a.engine.state, a.engine.threadsForSave(), demo, { kind: 'headless', fps: 60, nextFrame: a.nextFrame, files: ['scripts'], seed: 1, loopGuard: 100000, input: [] });
}

const at5 = savedAt(5000);

describe('restoring into patched scripts reports what the patch took away', () => {
  it('a saved loop aimed at a handler the patch removed is reported, once, naming the loop and its target', () => {
    expect(JSON.parse(at5).body.world.loops).toContainEqual(expect.objectContaining({ kind: 'flat', event: 'gobedsit', target: 'tour' }));
    const r = readSnapshot(at5, program(noGobedsit));
    expect(r.changes.loops).toEqual(['flat loop gobedsit (flat tour has no handler gobedsit)']);
    expect(r.changes.removed).toEqual([]);
  });

  it('the same scripts report nothing, even for a loop that was aimed at nothing from the start', () => {
    const p = program([{ file: 'a.pw', source: 'flat f\n  on startup\n  end\nendflat\non startup\n  makeloop ("flat", "nothing", 100, "f")\n  delay (1000)\nend\n' }]);
    const a = runHeadless(p, { print: () => {}, diagnostic: () => {} }, { fps: 60, seed: 1, until: 500 * UNITS, savedAfter: true });
    const text = writeSnapshot(a.engine.state, a.engine.threadsForSave(), p, { kind: 'headless', fps: 60, nextFrame: a.nextFrame, files: ['a.pw'], seed: 1, loopGuard: 100000, input: [] });
    expect(readSnapshot(text, p).changes).toMatchObject({ removed: [], loops: [] });
  });

  it('an actor whose block is gone is named once', () => {
    const r = readSnapshot(at5, program(noSteward));
    expect(r.changes.removed.filter((x) => x.includes('steward'))).toEqual(['actor steward']);
  });

  it('World.restore tells its host as a warning', () => {
    const warnings: Diagnostic[] = [];
    const lib = compile(noGobedsit.map((s) => ({ name: s.file, text: s.source })));
    const w = World.restore(lib, at5, { host: { diagnostic: (d) => warnings.push(d) } });
    expect(warnings.map((d) => [d.severity, d.message])).toEqual([
      ['warning', 'the scripts no longer have what a saved loop aims at: flat loop gobedsit (flat tour has no handler gobedsit); it fires into nothing'],
    ]);
    w.frame();
  });

  it('pw run says both on stderr, each thing once, and runs on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-patch-'));
    try {
      cpSync(join(root, 'scripts'), join(dir, 'scripts'), { recursive: true });
      writeFileSync(join(dir, 's.json'), at5);
      rmSync(join(dir, 'scripts', 'steward.pw'));
      const world = join(dir, 'scripts', 'world.pw');
      writeFileSync(world, noGobedsit.find((s) => s.file === 'scripts/world.pw')!.source.replace('  sendtoactor ("steward", "setup")\n', ''));
      const r = await pwHere(['run', 'scripts', '--restore', 's.json', '--until', '25s'], dir);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stderr.split('\n').filter((l) => l.startsWith('pw: '));
      expect(lines).toEqual([
        'pw: the scripts no longer have actor steward: restored without it',
        'pw: the scripts no longer have what a saved loop aims at: flat loop gobedsit (flat tour has no handler gobedsit); it fires into nothing',
      ]);
      expect(readFileSync(world, 'utf8')).not.toContain('on gobedsit');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
