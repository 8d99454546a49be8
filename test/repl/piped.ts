// The plain line mode: `pw repl` with its input piped, given whole, or a line at a time
// with the test reading what it answers. It runs in this process (src/cli/main.ts, what
// the built pw runs); `replProcess` is the built pw in a child process, for what only a
// process shows (that it exits).
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { PW, pwHere } from '../support/cli.ts';

export interface Ran {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** `pw repl ARGS` with `input` piped in whole. */
export async function repl(input: string, args: string[] = [], cwd = process.cwd()): Promise<Ran> {
  const r = await pwHere(['repl', ...args], cwd, { input });
  return { stdout: r.stdout, stderr: r.stderr, status: r.code };
}

/** As repl, the built pw in a child process. */
export function replProcess(input: string, args: string[] = [], cwd?: string): Ran {
  const r = spawnSync(process.execPath, [PW, 'repl', ...args], { input, encoding: 'utf8', timeout: 120_000, cwd });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** `pw run ARGS`. */
export async function run(args: string[], cwd: string): Promise<Ran> {
  const r = await pwHere(['run', ...args], cwd);
  return { stdout: r.stdout, stderr: r.stderr, status: r.code };
}

/** `pw repl ARGS` on a pipe kept open: lines are sent as the test goes, and it waits for what they print. */
export class PipedRepl {
  stdout = '';
  stderr = '';
  private readonly input = new PassThrough();
  private readonly exited: Promise<Ran>;
  private waiters: (() => void)[] = [];

  constructor(args: string[], cwd = process.cwd()) {
    this.exited = pwHere(['repl', ...args], cwd, { input: this.input, onStdout: (d) => this.heard(() => (this.stdout += d)) }).then((r) => {
      this.stderr = r.stderr;
      return { stdout: this.stdout, stderr: r.stderr, status: r.code };
    });
  }

  send(lines: string): void {
    this.input.write(lines);
  }

  /** Resolves once stdout passes `test`; fails after `ms` with what was printed so far (and ends the input). */
  until(test: (stdout: string) => boolean, what: string, ms = 15_000): Promise<void> {
    return new Promise((done, fail) => {
      const timer = setTimeout(() => {
        this.input.end();
        fail(new Error(`no ${what} within ${ms} ms; stdout:\n${this.stdout}`));
      }, ms);
      const check = (): void => {
        if (!test(this.stdout)) return void this.waiters.push(check);
        clearTimeout(timer);
        done();
      };
      check();
    });
  }

  /** Ends the input and waits for the REPL to finish. */
  end(): Promise<Ran> {
    this.input.end();
    return this.exited;
  }

  private heard(take: () => void): void {
    take();
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}
