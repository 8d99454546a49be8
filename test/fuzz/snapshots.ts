// (g) Snapshots of the demo world, mutated as a player with a text editor could (any
// field set to an odd value, removed, added, or swapped for another field's value, the
// checksum signed again), restored through both doors: the reader `pw run --restore`
// uses, and the library's World.restore. Both accept and refuse alike; a refusal is a
// SnapshotError (never an internal error, a TypeError or a RangeError); an accepted
// snapshot is a world that takes frames, is saved again, and whose save restores.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { compile, World, SnapshotError, type Program as LibraryProgram } from '../../src/api/index.ts';
import { decodeSnapshot, fitSnapshot, writeSnapshot, readSnapshot, SnapshotError as ReaderError, type HostInfo } from '../../src/engine/snapshot.ts';
import { runHeadless, createHeadlessEngine, continueHeadless } from '../../src/hosts/headless.ts';
import { sha256Hex } from '../../src/hash/sha256.ts';
import { UNITS_PER_MS } from '../../src/time/units.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Odd values a field may be set to: extremes, fractions, inherited names, names of the demo's things, script-value spellings. */
const ODD_VALUES: Json[] = [
  -1e308,
  1e308,
  -1,
  0,
  0.5,
  1.5,
  59.94,
  2 ** 31,
  2 ** 53,
  1e15 + 2,
  -1e15 - 2,
  360,
  -360,
  1e300,
  '',
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'galley',
  'fore',
  'engine',
  'staircase',
  'steward',
  'nowhere',
  'prop faucet',
  'prop',
  'x'.repeat(50),
  null,
  true,
  false,
  [],
  {},
  [1, 2],
  { toString: 1 },
  { $num: 'NaN' },
  { $num: 'Infinity' },
  { $num: '-Infinity' },
  { $num: '1e400' },
  { $list: 0 },
  { $list: 99 },
  { $list: -1 },
  { $unset: 1 },
  { kind: 'constructor', at: 0 },
  { kind: 'click', at: 0, target: 'tour', objectKind: 'flat' },
  { kind: 'mouse', at: 0, down: true },
  { at: 0, click: 'prop' },
  { at: 0, click: 'flat tour' },
];
const ODD_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'surprise', 'galley', 'x', 'loop', '#3', '\u001b[2J'];

export interface Edit {
  /** Which node of the snapshot (by number, modulo how many it has). */
  at: number;
  /** typed: a value of the same type (another number, another name the snapshot uses, the other truth value). */
  op: 'typed' | 'set' | 'delete' | 'add' | 'copy' | 'nudge';
  value: number;
  key: number;
  /** The node whose value a copy takes. */
  from: number;
  by: number;
}

export interface SnapshotInput {
  base: number;
  edits: Edit[];
  /** Whether the checksum is made again for the edited body (a player can: it is a plain SHA-256). */
  resign: boolean;
  /** The engine the `pw run` door continues on. */
  jit: boolean;
}

/** Moments of the demo a snapshot is taken at, in game ms: before the first set, walking, mid-conversation, a patrol, crickets, the staircase. */
const MOMENTS = [400, 2500, 5000, 9000, 14_000, 20_000, 33_000, 47_300];

const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom('typed', 'typed', 'typed', 'typed', 'nudge', 'nudge', 'set', 'delete', 'add', 'copy'),
  value: fc.nat(ODD_VALUES.length - 1),
  key: fc.nat(ODD_KEYS.length - 1),
  from: fc.nat(),
  by: fc.constantFrom(1, -1, 0.5, -0.5, 1e10, -1e10, 1e300, 360),
});

export const snapshotInput: fc.Arbitrary<SnapshotInput> = fc.record({
  base: fc.nat(MOMENTS.length - 1),
  edits: fc.array(edit, { minLength: 1, maxLength: 3 }),
  resign: fc.oneof({ weight: 19, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  jit: fc.boolean(),
});

interface Demo {
  library: LibraryProgram;
  bases: string[];
}

let demo: Demo | null = null;

/** The demo compiled once per worker, and saved at each moment as `pw run scripts --until … --save` writes it. */
function theDemo(): Demo {
  if (demo) return demo;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const files = readdirSync(join(root, 'scripts'))
    .filter((f) => f.endsWith('.pw'))
    .sort()
    .map((f) => ({ name: `scripts/${f}`, text: readFileSync(join(root, 'scripts', f), 'utf8') }));
  const library = compile(files);
  const quiet = { print: () => {}, diagnostic: () => {} };
  const bases = MOMENTS.map((ms) => {
    const a = runHeadless(library.code, quiet, { fps: 60, seed: 1, until: ms * UNITS_PER_MS, savedAfter: true });
    const host: HostInfo = {
      kind: 'headless',
      fps: 60,
      nextFrame: a.nextFrame,
      files: ['scripts'],
      seed: 1,
      loopGuard: 100_000,
      input: [
        { at: ms + 700, click: 'flat tour' },
        { at: ms + 900, mouse: 'down' },
      ] as never,
    };
    return writeSnapshot(a.engine.state, a.engine.threadsForSave(), library.code, host);
  });
  return (demo = { library, bases });
}

/** Every node of a JSON tree, as the path of keys to it (the root is []). */
function nodes(root: Json): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: [Json, (string | number)[]][] = [[root, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    out.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, [...path, i]]));
    else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) stack.push([v[k]!, [...path, k]]);
  }
  return out;
}

function get(root: Json, path: (string | number)[]): Json {
  let v = root;
  for (const k of path) v = (v as Record<string, Json>)[k]!;
  return v;
}

/** Sets a key as the snapshot's own, even "__proto__" (plain assignment would change the prototype instead). */
function put(o: Json, key: string | number, value: Json): void {
  if (Array.isArray(o) && typeof key === 'number') o[key] = value;
  else Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The demo's snapshot with the edits made, as text (signed again unless asked not to), and each edit as a person would read it. */
export function mutatedSnapshot(input: SnapshotInput): { text: string; edits: string[] } {
  const said: string[] = [];
  const { bases } = theDemo();
  const outer = JSON.parse(bases[input.base]!) as { checksum: string; body: Json };
  const body = outer.body;
  for (const e of input.edits) {
    const all = nodes(body);
    const path = all[e.at % all.length]!;
    const copy = (): Json => structuredClone(ODD_VALUES[e.value]!);
    const name = path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') || '(the body)';
    if (path.length === 0 && e.op !== 'add') continue;
    said.push(
      `${e.op} ${name}${e.op === 'typed' ? ` (was ${JSON.stringify(get(body, path))?.slice(0, 60)})` : ''}${e.op === 'set' || e.op === 'add' ? ` ${JSON.stringify(ODD_VALUES[e.value])}${e.op === 'add' ? ` as ${JSON.stringify(ODD_KEYS[e.key])}` : ''}` : e.op === 'nudge' ? ` by ${e.by}` : e.op === 'copy' ? ` from ${all[e.from % all.length]!.join('.')}` : ''}`,
    );
    if (path.length === 0) {
      // the body itself: add or drop a top-level field
      if (e.op === 'add') put(body, ODD_KEYS[e.key]!, copy());
      continue;
    }
    const parent = get(body, path.slice(0, -1));
    const key = path[path.length - 1]!;
    const here = get(body, path);
    switch (e.op) {
      case 'typed': {
        // most edits keep the type, so the snapshot passes the schema and the world's own rules are what is tried
        const same = all.map((p) => get(body, p)).filter((v) => typeof v === typeof here && v !== null && typeof v !== 'object');
        const odd = ODD_VALUES.filter((v) => typeof v === typeof here);
        const pool = [...odd, ...same];
        if (typeof here === 'boolean') put(parent, key, !here);
        else if (pool.length > 0 && (typeof here === 'number' || typeof here === 'string')) put(parent, key, pool[(e.value * 7919 + e.from) % pool.length]!);
        else put(parent, key, copy());
        break;
      }
      case 'set':
        put(parent, key, copy());
        break;
      case 'delete':
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete (parent as Record<string, Json>)[key];
        break;
      case 'add':
        if (Array.isArray(here)) here.push(copy());
        else if (here !== null && typeof here === 'object') put(here, ODD_KEYS[e.key]!, copy());
        else put(parent, key, copy());
        break;
      case 'copy':
        put(parent, key, structuredClone(get(body, all[e.from % all.length]!)));
        break;
      case 'nudge':
        if (typeof here === 'number') put(parent, key, e.by === 360 ? here + 360 : Math.abs(e.by) >= 1e10 ? here * e.by : here + e.by);
        else put(parent, key, copy());
        break;
    }
  }
  const text = JSON.stringify(body);
  return { text: `{"checksum":"${input.resign ? sha256Hex(text) : outer.checksum}","body":${text}}\n`, edits: said };
}

const quiet = { print: () => {}, diagnostic: () => {} };
/** pw run's own default: the demo's loops stay within it. */
const LOOP_GUARD = 100_000;

/** The `pw run --restore` door, in process: null when the snapshot was accepted (and the world ran on and saved), else the refusal. */
function throughRun(text: string, jit: boolean): string | null {
  const program = theDemo().library.code;
  let restored: ReturnType<typeof fitSnapshot>;
  try {
    restored = fitSnapshot(decodeSnapshot(text), program);
  } catch (err) {
    if (err instanceof ReaderError) return err.message;
    assert.fail(`pw run --restore would end in an internal error: ${(err as Error)?.stack ?? String(err)}`);
  }
  const h = restored.host;
  // as run.ts goes on: the snapshot's rate and seed, pw run's own loop guard
  const opts = { fps: h.fps, seed: h.seed, loopGuard: LOOP_GUARD, jit, input: h.input as never, until: restored.state.clock.game + 2000 * UNITS_PER_MS, savedAfter: true };
  let saved: string;
  try {
    const e = createHeadlessEngine(program, quiet, opts);
    e.adopt(restored.state, restored.threads, restored.changes);
    const r = continueHeadless(e, opts, h.nextFrame);
    if (r.engine.halted) return null;
    saved = writeSnapshot(r.engine.state, r.engine.threadsForSave(), program, { ...h, nextFrame: r.nextFrame, input: r.pendingInput });
  } catch (err) {
    assert.fail(`the world pw run restored could not run on and be saved: ${(err as Error)?.stack ?? String(err)}`);
  }
  try {
    readSnapshot(saved, program);
  } catch (err) {
    assert.fail(`Pocketwatch refused its own snapshot of a restored world: ${(err as Error)?.message ?? String(err)}\n${saved.slice(0, 1500)}`);
  }
  return null;
}

/** The library's door: null when World.restore accepted it (and the world took frames, saved, and its save restored), else the refusal. */
function throughLibrary(text: string): string | null {
  const { library } = theDemo();
  let w: World;
  try {
    w = World.restore(library, text, { loopGuard: LOOP_GUARD });
  } catch (err) {
    assert.ok(err instanceof SnapshotError, `World.restore threw ${(err as Error)?.name ?? typeof err}, not a SnapshotError: ${(err as Error)?.stack ?? String(err)}`);
    return err.message;
  }
  try {
    for (let i = 0; i < 90 && !w.halted; i++) w.frame();
    const again = World.restore(library, w.save(), { loopGuard: LOOP_GUARD });
    if (!again.halted) again.frame();
  } catch (err) {
    assert.fail(`a world World.restore accepted could not take frames, save and restore again: ${(err as Error)?.stack ?? String(err)}`);
  }
  return null;
}

export function checkSnapshot(input: SnapshotInput): void {
  const { text } = mutatedSnapshot(input);
  const run = throughRun(text, input.jit);
  const lib = throughLibrary(text);
  assert.equal(lib, run, 'pw run --restore and World.restore disagree about the snapshot (null: accepted)');
}

export function showSnapshotInput(input: SnapshotInput): string {
  const { edits } = mutatedSnapshot(input);
  return `the demo saved at ${MOMENTS[input.base]} ms, edited: ${edits.join('; ')}${input.resign ? '' : ' (checksum left as it was)'}; continued on ${input.jit ? 'generated code' : 'the interpreter'}`;
}
