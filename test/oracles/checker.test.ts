// The oracle checker itself: the file format, the comparison, the diff and --update.
// Anything that writes works on a temporary copy, never on the committed oracles.
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SETTINGS, OracleFormatError, parseOracle, withExpected, writeOracle, type OracleSettings } from '../../src/oraclefile/format.ts';
import { checkOracleFile, firstDivergence, findOracles, sameEvent, updateOracleFile } from '../../src/oracle/check.ts';
import { colourWanted, painter, renderResult } from '../../src/oracle/diff.ts';
import { TRACE_KINDS } from '../../src/oraclefile/kinds.ts';
import type { TraceEvent } from '../../src/trace/events.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const plain = painter(false);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pw-oracle-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

function copyOracle(name: string): string {
  const to = join(tmp, name);
  cpSync(join(here, name), to);
  return to;
}

function formatError(text: string): OracleFormatError {
  try {
    parseOracle(text);
  } catch (err) {
    if (err instanceof OracleFormatError) return err;
    throw err;
  }
  throw new Error('expected a format error');
}

describe('oracle format', () => {
  it('reads the header settings, the script and the expectation', () => {
    const text = [
      '-- oracle: the faucet shuts itself off',
      '-- until: 10s',
      '-- seed: 7',
      '-- fps: 30',
      '-- loop-guard: 0',
      '-- keep-going: yes',
      '-- load: ../../scripts/engine.pw',
      '-- click: 1025 prop faucet',
      '-- mouse: 2.5s down',
      '-- kinds: print, loop',
      '-- A plain comment line, and a note with no colon.',
      'on startup',
      '  print (1)',
      'end',
      '== expect',
      '{"t":0,"ev":"print","text":"1"}',
      '',
    ].join('\n');
    const o = parseOracle(text);
    expect(o.settings).toEqual({
      about: 'the faucet shuts itself off',
      until: '10s',
      seed: 7,
      fps: 30,
      loopGuard: 0,
      keepGoing: true,
      loads: ['../../scripts/engine.pw'],
      input: [
        { at: 1025, click: 'prop faucet' },
        { at: 2500, mouse: 'down' },
      ],
      kinds: ['print', 'loop'],
    } satisfies OracleSettings);
    expect(o.hasScript).toBe(true);
    expect(o.script).toBe(text.slice(0, text.indexOf('== expect')));
    expect(o.expected).toEqual([{ line: 16, event: { t: 0, ev: 'print', text: '1' } }]);
  });

  it('uses the same defaults as pw run', () => {
    const o = parseOracle('on startup\nend\n== expect\n');
    expect(o.settings).toEqual(DEFAULT_SETTINGS);
    expect(o.settings.until).toBe('60s');
    expect(o.settings.fps).toBe(60);
  });

  it('names the line of a mistake, with a suggestion where it can', () => {
    expect(formatError('-- oracle: x\n-- untill: 3s\n').message).toMatch(/^line 2: "untill" is not an oracle setting — did you mean "until"\?/);
    expect(formatError('-- kinds: print lop\n').message).toMatch(/line 1: "lop" is not a trace event kind — did you mean "loop"\?/);
    expect(formatError('-- until: 10\n').message).toMatch(/line 1: until: bad duration/);
    expect(formatError('-- seed: -1\n').message).toMatch(/line 1: seed needs a whole number/);
    expect(formatError('-- click: 1025 faucet\n').message).toMatch(/line 1: click needs a time, an object kind/);
    expect(formatError('-- mouse: 10 sideways\n').message).toMatch(/line 1: mouse needs a time and down or up/);
    expect(formatError('-- until: 1s\n-- until: 2s\n').message).toMatch(/line 2: until is already set on line 1/);
    expect(formatError('on startup\nend\n-- until: 2s\n').message).toMatch(/line 3: .*settings belong in the header/);
    expect(formatError('on startup\nend\n== expected\n').message).toMatch(/line 3: .*write "== expect"/);
    expect(formatError('on startup\nend\n== expect\nnot json\n').message).toMatch(/line 4: expected a trace event/);
    expect(formatError('== expect\n{"ev":"print"}\n').message).toMatch(/line 2: a trace event needs a number "t"/);
    expect(formatError('-- kinds: print\n== expect\n{"t":0,"ev":"loop"}\n').message).toMatch(/line 3: a "loop" event, but the kinds setting compares only print/);
  });

  it('keeps everything above "== expect" byte for byte when the expectation is rewritten', () => {
    const head = '-- oracle: spacing and CRLF survive\r\n-- until: 1s\r\n\r\non startup   \r\n  print ("a")\r\nend\r\n== expect\r\n';
    const text = head + '{"t":0,"ev":"print","text":"old"}\r\n';
    const next = withExpected(parseOracle(text), [{ t: 0, ev: 'print', text: 'a' }]);
    expect(next).toBe(head + '{"t":0,"ev":"print","text":"a"}\r\n');
  });

  it('adds the separator to an oracle that has none yet', () => {
    expect(withExpected(parseOracle('on startup\nend'), [{ t: 0, ev: 'print', text: 'x' }])).toBe('on startup\nend\n== expect\n{"t":0,"ev":"print","text":"x"}\n');
  });

  // Property: settings, script and events written out read back the same, and
  // rewriting the expectation of a written oracle reproduces it exactly.
  const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
  const settingsArb = fc.record({
    about: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ,.;()'-]{0,40}[A-Za-z0-9.)]$/),
    until: fc.constantFrom('60s', '10s', '37.25s', '500ms', '2m'),
    fps: fc.integer({ min: 1, max: 10000 }),
    seed: fc.nat(1_000_000),
    loopGuard: fc.nat(1_000_000),
    keepGoing: fc.boolean(),
    loads: fc.array(
      word.map((w) => `../worlds/${w}.pw`),
      { maxLength: 3 },
    ),
    input: fc.array(
      fc.oneof(
        fc.record({ at: fc.nat(100_000), click: fc.tuple(fc.constantFrom('prop', 'actor', 'flat', 'set'), word).map(([k, n]) => `${k} ${n}`) }),
        fc.record({ at: fc.nat(100_000), mouse: fc.constantFrom('down' as const, 'up' as const) }),
      ),
      { maxLength: 4 },
    ),
    kinds: fc.option(fc.uniqueArray(fc.constantFrom(...Object.keys(TRACE_KINDS)), { minLength: 1, maxLength: 5 }), { nil: null }),
  });
  const scriptArb = fc
    .array(
      fc.stringMatching(/^[a-z (),."0-9=+-]{0,30}$/).filter((l) => !l.startsWith('==') && !l.trimStart().startsWith('--')),
      { maxLength: 6 },
    )
    .map((ls) => ls.join('\n'));
  const valueArb = fc.oneof(
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d)),
    fc.boolean(),
  );

  it('round-trips settings, script and events', () => {
    fc.assert(
      fc.property(settingsArb, scriptArb, fc.array(fc.tuple(fc.nat(1_000_000), fc.dictionary(word, valueArb, { maxKeys: 3 })), { maxLength: 8 }), (settings, script, raw) => {
        const kinds = settings.kinds ?? Object.keys(TRACE_KINDS);
        // t and ev first, as the engine writes them; the random fields may not replace them
        const events: TraceEvent[] = raw.map(([t, fields], i) => Object.assign({ t: 0, ev: '' }, fields, { t: t / 1000, ev: kinds[i % kinds.length] }));
        const text = writeOracle(settings, script, events);
        const o = parseOracle(text);
        expect(o.settings).toEqual(settings);
        expect(o.expected.map((e) => e.event)).toEqual(events);
        expect(withExpected(o, events)).toBe(text);
        expect(
          withExpected(
            parseOracle(text),
            o.expected.map((e) => e.event),
          ),
        ).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});

describe('comparing traces', () => {
  const ev = (t: number, text: string): TraceEvent => ({ t, ev: 'print', text });
  const lines = (...evs: TraceEvent[]) => evs.map((event, i) => ({ line: i + 2, event }));

  it('ignores field order but nothing else', () => {
    expect(firstDivergence([{ line: 1, event: { text: 'a', ev: 'print', t: 5 } as TraceEvent }], [ev(5, 'a')])).toBeNull();
    expect(firstDivergence(lines(ev(5, 'a')), [{ ...ev(5, 'a'), extra: 1 }])?.index).toBe(0);
  });

  it('compares events as their JSON text with fields sorted does, for any JSON-like values', () => {
    // the reading the comparison must agree with: each side written out, fields sorted
    const text = (v: unknown): string => {
      if (Array.isArray(v)) return `[${v.map(text).join(',')}]`;
      if (v !== null && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        return `{${Object.keys(o)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${text(o[k])}`)
          .join(',')}}`;
      }
      return JSON.stringify(v) ?? 'undefined';
    };
    const leaf = fc.oneof(fc.constantFrom(0, -0, 1, NaN, Infinity, null, undefined, true, false, '', 'a', '1'), fc.integer(), fc.string({ maxLength: 3 }));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('t', 'ev', 'text', 'x'), tie('v'), { maxKeys: 3 })),
    })).v;
    // pairs that are often alike: one value and a copy with its fields in another order, or a changed one
    const reordered = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(reordered);
      if (v !== null && typeof v === 'object')
        return Object.fromEntries(
          Object.entries(v)
            .reverse()
            .map(([k, x]) => [k, reordered(x)]),
        );
      return v;
    };
    fc.assert(
      fc.property(value, value, fc.boolean(), (a, b, alike) => {
        const other = alike ? reordered(a) : b;
        expect(sameEvent(a, other)).toBe(text(a) === text(other));
      }),
    );
  });

  it('finds the first divergence, including a trace that ends early on either side', () => {
    expect(firstDivergence(lines(ev(0, 'a'), ev(1, 'b')), [ev(0, 'a'), ev(1, 'c')])).toMatchObject({ index: 1, actual: ev(1, 'c'), expected: { line: 3 } });
    expect(firstDivergence(lines(ev(0, 'a'), ev(1, 'b')), [ev(0, 'a')])).toMatchObject({ index: 1, actual: null });
    expect(firstDivergence(lines(ev(0, 'a')), [ev(0, 'a'), ev(2, 'z')])).toMatchObject({ index: 1, expected: null, actual: ev(2, 'z') });
  });
});

describe('checking an oracle file', () => {
  it('passes on a committed oracle', () => {
    expect(checkOracleFile(copyOracle('loop_rearm.oracle')).ok).toBe(true);
  });

  it('fails on a changed expected event with a diff naming the game time and both events; --update restores it', () => {
    const file = copyOracle('loop_rearm.oracle');
    const original = readFileSync(file, 'utf8');
    const good = '{"t":4500,"ev":"print","text":"hiss 2 at 4500"}';
    const bad = '{"t":4500,"ev":"print","text":"hiss 2 at 4550"}';
    expect(original).toContain(good);
    writeFileSync(file, original.replace(good, bad));

    const r = checkOracleFile(file);
    expect(r.ok).toBe(false);
    expect(r.divergence?.expected?.event).toEqual(JSON.parse(bad));
    const report = renderResult(r, 'loop_rearm.oracle', plain);
    expect(report).toMatch(/^FAIL loop_rearm\.oracle/);
    expect(report).toContain('first difference at game time 4500 ms');
    expect(report).toContain(`- expected  ${bad}`);
    expect(report).toContain(`+ actual    ${good}`);
    expect(report).toContain('differs in text: "hiss 2 at 4550" expected, "hiss 2 at 4500" in the run');
    const lineNo = original.split('\n').indexOf(good) + 1;
    expect(report).toContain(`loop_rearm.oracle:${lineNo}`);

    const u = updateOracleFile(file);
    expect(u.status).toBe('updated');
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(checkOracleFile(file).ok).toBe(true);
    expect(updateOracleFile(file).status).toBe('unchanged');
  });

  it('reports a run that stops early and one that goes on longer', () => {
    const file = copyOracle('loop_rearm.oracle');
    const original = readFileSync(file, 'utf8');
    const lastLine = original.trimEnd().split('\n').pop()!;
    writeFileSync(file, original + '{"t":9000,"ev":"print","text":"one more"}\n');
    let report = renderResult(checkOracleFile(file), 'x', plain);
    expect(report).toContain('first difference at game time 9000 ms');
    expect(report).toContain('+ actual    (nothing more: the run produced no further events)');
    writeFileSync(file, original.replace(lastLine + '\n', ''));
    report = renderResult(checkOracleFile(file), 'x', plain);
    expect(report).toContain('first difference at game time 6750 ms');
    expect(report).toContain('- expected  (nothing more: the expectation ends here)');
    expect(report).toContain(`+ actual    ${lastLine}`);
  });

  it('names both times when an event moved', () => {
    const file = copyOracle('loop_rearm.oracle');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('{"t":6750,"ev":"loop"', '{"t":6800,"ev":"loop"'));
    const report = renderResult(checkOracleFile(file), 'x', plain);
    expect(report).toContain('first difference at game time 6800 ms expected, 6750 ms in the run');
    expect(report).toContain('differs in t: 6800 expected, 6750 in the run');
  });

  it('compares only the kinds asked for, and --update records only those', () => {
    const file = join(tmp, 'kinds.oracle');
    writeFileSync(file, '-- kinds: print\nset s\n  on openset\n    makeloop ("scene", "go", 2)\n  end\n  on go\n    print (gametime ())\n  end\nendset\non startup\n  gotoset ("s")\nend\n');
    expect(checkOracleFile(file).problem).toMatch(/no "== expect" line yet/);
    expect(updateOracleFile(file).status).toBe('updated');
    expect(readFileSync(file, 'utf8')).toMatch(/\n== expect\n\{"t":100,"ev":"print","text":"100"\}\n$/);
    expect(checkOracleFile(file).ok).toBe(true);
  });

  it('runs loaded scripts, named as the oracle names them, and timed input', () => {
    mkdirSync(join(tmp, 'worlds'));
    writeFileSync(join(tmp, 'worlds', 'tap.pw'), 'prop tap\n  on click\n    print ("click at " .. gametime ())\n    x = 1 + "a"\n  end\nendprop\n');
    const file = join(tmp, 'tap.oracle');
    writeFileSync(file, '-- load: worlds/tap.pw\n-- click: 120 prop tap\n');
    expect(updateOracleFile(file).status).toBe('updated');
    const o = parseOracle(readFileSync(file, 'utf8'));
    expect(o.expected.map((e) => e.event)).toEqual([
      { t: 0, ev: 'event', to: 'global', event: 'startup' }, // the boot library's
      { t: 150, ev: 'click', to: 'prop tap' },
      { t: 150, ev: 'event', to: 'prop tap', event: 'click' },
      { t: 150, ev: 'print', text: 'click at 150' },
      { t: 150, ev: 'error', message: expect.stringContaining('cannot add'), at: 'worlds/tap.pw:4:11' },
    ]);
    expect(checkOracleFile(file).ok).toBe(true);
  });

  it('says why an oracle cannot run', () => {
    const missing = join(tmp, 'missing.oracle');
    writeFileSync(missing, '-- load: nowhere.pw\n== expect\n');
    expect(checkOracleFile(missing).problem).toMatch(/-- load: nowhere\.pw: no such file or folder/);
    const broken = join(tmp, 'broken.oracle');
    writeFileSync(broken, 'on startup\n  print (1 +)\nend\n== expect\n');
    const r = checkOracleFile(broken);
    expect(r.ok).toBe(false);
    expect(r.problem).toMatch(/the scripts do not compile:\nbroken\.oracle:2:/);
    expect(updateOracleFile(broken).status).toBe('broken');
    const empty = join(tmp, 'empty.oracle');
    writeFileSync(empty, '-- oracle: nothing here\n== expect\n');
    expect(checkOracleFile(empty).problem).toMatch(/nothing to run/);
    const bad = join(tmp, 'bad.oracle');
    writeFileSync(bad, '-- fps: fast\n');
    expect(checkOracleFile(bad).problem).toMatch(/bad\.oracle:1: fps needs a number/);
  });

  it('--update rewrites an expectation that no longer parses', () => {
    const file = copyOracle('loop_rearm.oracle');
    const original = readFileSync(file, 'utf8');
    writeFileSync(file, original.replace('{"t":2250,"ev":"loop"', '{"t":2250,"ev":loop'));
    expect(checkOracleFile(file).problem).toMatch(/expected a trace event/);
    expect(updateOracleFile(file).status).toBe('updated');
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('finds oracles recursively, sorted, without repeats', () => {
    mkdirSync(join(tmp, 'b'));
    for (const f of ['b/z.oracle', 'a.oracle', 'b/y.oracle', 'notes.txt']) writeFileSync(join(tmp, f), '');
    const found = findOracles([tmp, join(tmp, 'a.oracle')]).map((f) => f.slice(tmp.length + 1));
    expect(found).toEqual(['a.oracle', 'b/y.oracle', 'b/z.oracle']);
  });
});

describe('colour', () => {
  it('is used on a terminal or when forced, never otherwise', () => {
    expect(colourWanted(true, {})).toBe(true);
    expect(colourWanted(false, {})).toBe(false);
    expect(colourWanted(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(colourWanted(false, { FORCE_COLOR: '' })).toBe(true);
    expect(colourWanted(true, { FORCE_COLOR: '0' })).toBe(false);
    expect(colourWanted(true, { NO_COLOR: '1' })).toBe(false);
  });

  it('colours a failure report only when asked', () => {
    const file = copyOracle('loop_rearm.oracle');
    writeFileSync(file, readFileSync(file, 'utf8').replace('hiss 3 at 6750"}', 'hiss 3 at 6751"}'));
    const r = checkOracleFile(file);
    expect(renderResult(r, 'x', painter(true))).toContain('\u001b[');
    expect(renderResult(r, 'x', painter(false))).not.toContain('\u001b[');
  });
});
