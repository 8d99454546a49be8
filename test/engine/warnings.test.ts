// Warnings repeated at one place are counted, not printed each time: a loop over 5 000
// missing sounds writes a handful of lines, not 5 000 — and every warning names its line.
import { describe, expect, it } from 'vitest';
import { runScript } from '../support/run.ts';

describe('repeated warnings', () => {
  it('the same warning at the same place is shown once, then at the 10th, 100th, 1000th… time with its count', () => {
    const src = ['on startup', '  for i = 1 to 5000', '    playsound ("missing" .. i)', '  endfor', 'end', ''].join('\n');
    const r = runScript(src, { until: 100 });
    const heads = r.stderr.split('\n').filter((l) => l.startsWith('test.pw:'));
    expect(heads).toEqual([
      'test.pw:3:5: warning: playsound: there is no sound "missing1"; define it with defsound (it plays as silence)',
      'test.pw:3:5: warning: playsound: there is no sound "missing10"; define it with defsound (it plays as silence) — the 10th time here (repeats are counted, and shown at the 100th, 1000th… time)',
      'test.pw:3:5: warning: playsound: there is no sound "missing100"; define it with defsound (it plays as silence) — the 100th time here (repeats are counted, and shown at the 1000th, 10000th… time)',
      'test.pw:3:5: warning: playsound: there is no sound "missing1000"; define it with defsound (it plays as silence) — the 1000th time here (repeats are counted, and shown at the 10000th, 100000th… time)',
    ]);
    expect(r.stderr.length).toBeLessThan(3000);
    // the trace keeps every one
    expect(r.trace.filter((e) => e.ev === 'warning')).toHaveLength(5000);
  });

  it('different places and different warnings are each shown', () => {
    const src = ['on startup', '  playsound ("a")', '  playsound ("b")', '  voice ("a")', 'end', ''].join('\n');
    const heads = runScript(src, { until: 100 })
      .stderr.split('\n')
      .filter((l) => l.startsWith('test.pw:'));
    expect(heads.map((l) => l.slice(0, 11))).toEqual(['test.pw:2:3', 'test.pw:3:3']);
  });

  it("a warning's call stack names the line of the call that warned, and of each call that led there", () => {
    const src = ['on startup', '  ring ()', 'end', '', 'on ring', '  playsound ("bell")', 'end', ''].join('\n');
    const r = runScript(src, { until: 100 });
    expect(r.stderr).toContain('script call stack:\n  ring at test.pw:6:3\n  startup at test.pw:2:3\n  in a thread started by startup');
  });
});

describe("a warning's call stack through nested script calls", () => {
  /** The call stack of each warning, run on both engines (which print the same). */
  function warned(src: string[]): string[][] {
    const fast = runScript(src.join('\n'), { until: 100 });
    const slow = runScript(src.join('\n'), { until: 100, jit: false });
    expect(slow.stderr).toEqual(fast.stderr);
    return fast.errors.filter((d) => d.kind === 'warning').map((d) => d.stack ?? []);
  }

  it('handlers that never wait: every caller at its call, and none left over once they returned', () => {
    const src = [
      'on startup', //           1
      '  outer ()', //           2
      '  playsound ("gong")', // 3
      'end',
      '',
      'on outer', //             6
      '  print (inner (2))', //  7
      'end',
      '',
      'on inner (n)', //         10
      '  playsound ("bell")', // 11
      '  return twice (n)',
      'end',
      '',
      'on twice (n)',
      '  return n * 2',
      'end',
      '',
    ];
    expect(warned(src)).toEqual([
      ['inner at test.pw:11:3', 'outer at test.pw:7:10', 'startup at test.pw:2:3', 'in a thread started by startup'],
      ['startup at test.pw:3:3', 'in a thread started by startup'],
    ]);
  });

  it('callers that wait, and an event sent to a prop, on the way', () => {
    const src = [
      'prop lamp', //                      1
      '  on ring', //                      2
      '    chime ()', //                   3
      '  end',
      'endprop',
      '',
      'on startup', //                     7
      '  patrol ()', //                    8
      'end',
      '',
      'on patrol', //                      11
      '  delay (1)', //                    12
      '  sendtoprop ("lamp", "ring")', //  13
      '  delay (1)',
      'end',
      '',
      'on chime', //                       17
      '  voice ("hello")', //              18
      'end',
      '',
    ];
    expect(warned(src)).toEqual([['chime at test.pw:18:3', 'ring (prop lamp) at test.pw:3:5', 'patrol at test.pw:13:3', 'startup at test.pw:8:3', 'in a thread started by startup']]);
  });
});
