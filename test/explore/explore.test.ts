// pw explore on worlds with planted defects: each is found with a path that a repro
// oracle replays (and pw check passes), and the report is the same every time, for any
// split of the search. Budgets are small: a few hundred to two thousand states.
import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, existsSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pwHere, pwProcess, type PwRun } from '../support/cli.ts';
import { loadFiles, runHeadless, checkOracle, exploreFiles } from '../../src/api/node.ts';
import { explore } from '../../src/api/index.ts';
import { expectExploreClean, ExploreFindings } from '../../src/api/vitest.ts';
import { mergeReports, reportJson } from '../../src/explore/report.ts';
import { ExploreWorld } from '../../src/explore/world.ts';
import { actionsOf, programFacts } from '../../src/explore/actions.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const world = (name: string) => `test/explore/worlds/${name}.pw`;
/** `pw ARGS…` in this process; builtPw: the built pw in a child process, for --jobs (its worker threads run the built file). */
const pw = (args: string[]): Promise<PwRun> => pwHere(args, root, { env: { NO_COLOR: '1' } });
const builtPw = (args: string[]): PwRun => pwProcess(args, root, { env: { ...process.env, NO_COLOR: '1' } });
const tmp = () => mkdtempSync(join(tmpdir(), 'pw-explore-'));

describe('pw explore finds planted defects', () => {
  it('a runtime error that only three timed clicks and a wait of two seconds reach', async () => {
    const out = tmp();
    const r = await exploreFiles([world('bell')], { states: 2000, until: '20s', out });
    expect(r.findings).toHaveLength(1);
    const f = r.findings[0];
    expect(f.kind).toBe('error');
    expect(f.at).toBe(`${world('bell')}:32`);
    expect(f.message).toContain('cannot multiply');
    expect(f.path.map((s) => s.input)).toEqual(['click prop bell', 'click prop bell', 'click prop bell']);
    // the clicks fall in three different lit seconds, and the error two seconds after the last
    const lit = f.path.map((s) => Math.floor(s.t / 1000));
    expect(new Set(lit).size).toBe(3);
    expect(lit.every((s) => s % 2 === 1)).toBe(true);
    expect(f.end - f.path[2].t).toBeGreaterThanOrEqual(2000);
    // the oracle replays it: pw check passes it, and its trace ends in the error
    const check = checkOracle(f.oracle!);
    expect(check.problem).toBeNull();
    expect(check.ok).toBe(true);
    const text = readFileSync(f.oracle!, 'utf8');
    expect(text).toMatch(/"ev":"error","message":"cannot multiply/);
    // no shorter path: any two of the clicks alone run without the error
    const program = loadFiles([world('bell')]);
    const two = runHeadless(program, { until: '20s', input: f.path.slice(1).map((s) => ({ at: s.t, click: 'prop bell' })) });
    expect(two.errors).toBe(0);
  });

  it('a softlock: the key used before the candle burns out, and from when it was inevitable', async () => {
    const out = tmp();
    const r = await exploreFiles([world('cellar')], { states: 400, until: '20s', endings: ['you escape'], out });
    const locks = r.findings.filter((f) => f.kind === 'softlock');
    expect(locks).toHaveLength(1);
    const f = locks[0];
    expect(f.path).toEqual([{ t: 50, input: 'click prop door' }]);
    // stuck once the candle is out; doomed from the click on
    expect(f.stuckAt).toBe(3000);
    expect(f.inevitable).toEqual({ t: 50, after: 1 });
    expect(checkOracle(f.oracle!).ok).toBe(true);
    // the ending is reachable: waiting for the dark first escapes
    const prints: string[] = [];
    runHeadless(loadFiles([world('cellar')]), { until: '10s', input: [{ at: 3050, click: 'prop door' }], host: { print: (t) => prints.push(t) } });
    expect(prints).toEqual(['the trapdoor opens: you escape']);
    // without --ending there is no telling a stuck world from a finished one
    expect(explore(loadFiles([world('cellar')]), { states: 400, until: '20s' }).findings).toEqual([]);
  });

  it('a handler reached only by clicking an actor while he walks is reached; one nothing sends is not', () => {
    const program = loadFiles([world('yard')]);
    const r = explore(program, { states: 300, until: '20s' });
    expect(r.findings).toEqual([]);
    expect(r.coverage.handlers.reached).toContain(`${world('yard')}:22 actor postman on chat`);
    expect(r.coverage.handlers.unreached).toEqual([`${world('yard')}:28 prop dog on whistle`]);
    expect(r.coverage.lines[world('yard')].unreached).toEqual([29]); // its body (the `end` that returns by itself is no line of code)
    // (a click once he has arrived does not chat)
    const prints: string[] = [];
    runHeadless(program, { until: '10s', input: [{ at: 5000, click: 'actor postman' }], host: { print: (t) => prints.push(t) } });
    expect(prints).toEqual([]);
  });
});

describe('the answers of waiting host builtins', () => {
  // a copy of the game folder, its pocketwatch.json with it: the oracles written there find it too
  const game = () => {
    const dir = tmp();
    cpSync(join(root, 'test/explore/worlds/dialogue'), dir, { recursive: true });
    return dir;
  };

  it('each declared answer is an action: only "right" then a click reaches the error, and its oracle answers as the search did', async () => {
    const dir = game();
    const script = join(dir, 'dialogue.pw');
    const r = await exploreFiles([script], { states: 500, until: '5s', out: join(dir, 'out') });
    expect(r.findings).toHaveLength(1);
    const f = r.findings[0];
    expect(f.kind).toBe('error');
    expect(f.at).toBe(`${script}:25`);
    expect(f.path.map((s) => s.input)).toEqual(['answer 1 "right"', 'click prop lever']);
    const text = readFileSync(f.oracle!, 'utf8');
    expect(text).toContain(`-- answer: ${f.path[0].t} 1 "right"`);
    const check = checkOracle(f.oracle!);
    expect(check.problem).toBeNull();
    expect(check.ok).toBe(true);
    // the side door opens only on "left": reached, by that answer alone
    expect(r.coverage.handlers.reached).toContain(`${script}:15 flat sidedoor on open`);
    expect(r.coverage.handlers.unreached).toEqual([]);
    // without the answer the run answers void, and neither the error nor the door happens
    const plain = runHeadless(loadFiles([script]), { until: '5s', input: [{ at: 100, click: 'prop lever' }] });
    expect(plain.errors).toBe(0);
  });

  it('a thread waiting on the host in a restored state still waits, and its answers are still offered', () => {
    const program = loadFiles([join(game(), 'dialogue.pw')]).code;
    const w = new ExploreWorld(program, { fps: 60, seed: 1, loopGuard: 1_000_000, endings: [], coverage: false });
    w.boot();
    w.run(150);
    const waiting = w.fork();
    w.restore(waiting);
    w.run(300, [{ at: 100, click: 'prop lever' }]);
    expect(w.quiet).toBe(false);
    expect(actionsOf(w, programFacts(program), 15_000).map((a) => a.label)).toEqual(['click prop lever', 'answer 1 "left"', 'answer 1 "right"', 'wait 0.5s']);
  });

  it('a click while the question is open: its oracle holds the request open, as the search did, where pw check would answer void', async () => {
    const dir = game();
    const script = join(dir, 'dialogue.pw');
    // without a value before the question, the lever reads the global while choose () waits
    writeFileSync(script, readFileSync(script, 'utf8').replace('  way = ""\n', ''));
    const r = await exploreFiles([script], { states: 500, until: '5s', out: join(dir, 'out') });
    const early = r.findings.find((f) => f.message.includes('read before it is assigned'))!;
    expect(early.path.map((s) => s.input)).toEqual(['click prop lever']);
    const text = readFileSync(early.oracle!, 'utf8');
    expect(text).toContain(`-- answer: ${early.end + 50} 1 null`);
    expect(text).toMatch(/"ev":"error","message":"global \\"way\\" is read before it is assigned"/);
    expect(checkOracle(early.oracle!).ok).toBe(true);
  });

  it('a waiting builtin that declares no answers is answered with void, as pw run does', async () => {
    const dir = game();
    const json = join(dir, 'pocketwatch.json');
    const declared = JSON.parse(readFileSync(json, 'utf8'));
    delete declared.builtins.choose.answers;
    writeFileSync(json, JSON.stringify(declared));
    const r = await exploreFiles([join(dir, 'dialogue.pw')], { states: 500, until: '5s' });
    expect(r.findings).toEqual([]);
    expect(r.coverage.handlers.unreached).toEqual([`${join(dir, 'dialogue.pw')}:15 flat sidedoor on open`]);
  });
});

describe('keys', () => {
  it('presses, holds and lets go of the keys the scripts read', () => {
    const r = explore(loadFiles([world('keys')]), { states: 300, until: '5s' });
    expect(r.findings.map((f) => [f.kind, f.at, f.path.map((s) => s.input)])).toEqual([['error', `${world('keys')}:6`, ['key down space', 'key down q']]]);
  });
});

describe('the report', () => {
  it('is the same every time, and shards merged give the unsharded report', () => {
    const program = loadFiles([world('cellar')]);
    const options = { states: 300, until: '20s', endings: ['you escape'], seed: 3 };
    const whole = reportJson(explore(program, options));
    expect(reportJson(explore(program, options))).toBe(whole);
    const shards = [1, 2, 3].map((i) => explore(program, { ...options, shard: `${i}/3` }));
    expect(reportJson(mergeReports(shards))).toBe(whole);
    expect(reportJson(mergeReports([shards[2], shards[0], shards[1]]))).toBe(whole);
  });

  it('fails a vitest expectation with the human report', async () => {
    await expect(expectExploreClean([world('cellar')], { states: 200, until: '20s', endings: ['you escape'] })).rejects.toThrow(ExploreFindings);
    await expect(expectExploreClean([world('cellar')], { states: 200, until: '20s', endings: ['you escape'] })).rejects.toThrow(/softlock: no ending yet/);
    const clean = await expectExploreClean([world('yard')], { states: 100, until: '10s' });
    expect(clean.coverage.handlers.unreached).toHaveLength(1);
  });
});

describe('the command', () => {
  it('writes the JSON report, lcov and oracles; the same report with --jobs 2; exit 1 with findings', async () => {
    const dir = tmp();
    const one = await pw(['explore', world('cellar'), '--states', '300', '--until', '20s', '--ending', 'you escape', '--json', join(dir, 'a.json'), '--coverage', join(dir, 'c.lcov')]);
    expect(one.stderr).toBe('');
    expect(one.code).toBe(1);
    expect(one.stdout).toMatch(/^softlock: no ending yet/);
    expect(one.stdout).toMatch(/0 of 3 handlers, 0 lines never ran\n$/);
    const two = builtPw(['explore', world('cellar'), '--states', '300', '--until', '20s', '--ending', 'you escape', '--json', join(dir, 'b.json'), '--jobs', '2']);
    expect(two.code).toBe(1);
    expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe(readFileSync(join(dir, 'a.json'), 'utf8'));
    const report = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8'));
    expect(Object.keys(report)).toEqual(['states', 'findings', 'coverage']);
    expect(Object.keys(report.findings[0])).toEqual(['kind', 'message', 'at', 'path', 'end', 'stuckAt', 'inevitable', 'oracle']);
    expect(readFileSync(join(dir, 'c.lcov'), 'utf8')).toContain(`SF:${world('cellar')}\nFN:6,on startup`);
  });

  it('refuses bad usage with exit 2 and a clear message', async () => {
    const bad = async (args: string[], message: RegExp) => {
      const r = await pw(['explore', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).not.toMatch(/ at .*\.(ts|js):\d+/);
    };
    await bad([world('yard'), '--states', 'many'], /--states needs a whole number of 1 or more, not "many"/);
    await bad([world('yard'), '--ending', '('], /ending \/\(\/ is not a regular expression/);
    await bad([world('yard'), '--to', 'nowhere.pw:3'], /no script nowhere.pw is loaded/);
    await bad(['--merge', 'a.json'], /--merge needs --json OUT/);
    // a report that could not be written is refused before the search, not after it
    const dir = tmp();
    const out = join(dir, 'repros');
    await bad([world('cellar'), '--states', '300', '--until', '20s', '--ending', 'you escape', '--out', out, '--json', dir], /cannot write the report to/);
    expect(existsSync(out)).toBe(false);
    writeFileSync(out, 'not a folder');
    await bad([world('cellar'), '--states', '300', '--until', '20s', '--out', out], /cannot write the folder for the oracles to ".*repros" \(it is not a folder\)/);
    await bad([world('cellar'), '--states', '300', '--until', '20s', '--out', join(out, 'below')], /cannot write the folder for the oracles to ".*repros[/\\]below" \(ENOTDIR\)/);
  });

  it('warps: --to FILE:LINE --save saves the world just before the line runs, and pw run --restore runs it', async () => {
    const dir = tmp();
    const snap = join(dir, 'warp.json');
    const r = await pw(['explore', world('yard'), '--states', '200', '--until', '10s', '--to', `${world('yard')}:23`, '--save', snap]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^warp: from the start; the world at \d+ ms, then click actor postman\n/);
    expect(existsSync(snap)).toBe(true);
    const run = await pw(['run', '--restore', snap, '--until', '10s']);
    expect(run.stderr).not.toMatch(/error/);
    expect(run.stdout).toBe('the postman stops for a word on his way\n');
  });
});
