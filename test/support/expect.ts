// The expectations a .pw test carries in its comments, the Wren way:
//   -- expect: TEXT                  a line of stdout, in order
//   -- expect error: TEXT            a compile/syntax error on this line whose message contains TEXT
//   -- expect runtime error: TEXT    a runtime error on this line whose message contains TEXT
//   -- run: --until 10s --fps 30 --seed 4 --loop-guard 0 --until-wall 20s   options for the run
import { parseDuration } from '../../src/time/units.ts';

export interface Expected {
  out: string[];
  errors: { line: number; text: string; runtime: boolean }[];
  opts: Record<string, string>;
}

export function expectations(source: string): Expected {
  const ex: Expected = { out: [], errors: [], opts: {} };
  source.split('\n').forEach((line, i) => {
    let m = line.match(/--\s*expect:\s?(.*)$/);
    if (m) ex.out.push(m[1]);
    m = line.match(/--\s*expect (runtime )?error:\s*(.*)$/);
    if (m) ex.errors.push({ line: i + 1, text: m[2].trim(), runtime: !!m[1] });
    m = line.match(/--\s*run:\s*(.*)$/);
    if (m) {
      const parts = m[1].trim().split(/\s+/);
      for (let j = 0; j < parts.length; j += 2) ex.opts[parts[j].replace(/^--/, '')] = parts[j + 1];
    }
  });
  return ex;
}

/** The run options a test's `-- run:` line asks for, with the CLI's defaults. */
export function runOptions(ex: Expected): { until: number | undefined; untilWall: number | undefined; fps: number; seed: number; loopGuard: number } {
  return {
    until: ex.opts.until ? parseDuration(ex.opts.until) : undefined,
    untilWall: ex.opts['until-wall'] ? parseDuration(ex.opts['until-wall']) : undefined,
    fps: ex.opts.fps ? Number(ex.opts.fps) : 60,
    seed: ex.opts.seed ? Number(ex.opts.seed) : 1,
    loopGuard: ex.opts['loop-guard'] !== undefined ? Number(ex.opts['loop-guard']) : 100000,
  };
}
