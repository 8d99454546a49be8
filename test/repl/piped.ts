// The plain line mode through the built CLI: `pw repl` with stdin piped, given its
// whole input at once, or a line at a time with the test reading what it answers.
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

export const PW = resolve('dist/pw.js');

export interface Ran {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** `pw repl ARGS` with `input` piped in whole. */
export function repl(input: string, args: string[] = [], cwd?: string): Ran & { ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, [PW, 'repl', ...args], { input, encoding: 'utf8', timeout: 120_000, cwd });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, ms: Date.now() - started };
}

/** `pw run ARGS`. */
export function run(args: string[], cwd: string): Ran {
  const r = spawnSync(process.execPath, [PW, 'run', ...args], { encoding: 'utf8', timeout: 120_000, cwd });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** `pw repl ARGS` on a pipe kept open: lines are sent as the test goes, and it waits for what they print. */
export class PipedRepl {
  stdout = '';
  stderr = '';
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(args: string[], cwd?: string) {
    this.child = spawn(process.execPath, [PW, 'repl', ...args], { cwd });
    this.child.stdout.setEncoding('utf8').on('data', (d: string) => this.heard(() => (this.stdout += d)));
    this.child.stderr.setEncoding('utf8').on('data', (d: string) => this.heard(() => (this.stderr += d)));
    this.exited = new Promise((done) => this.child.on('close', (code) => done(code)));
  }

  send(lines: string): void {
    this.child.stdin.write(lines);
  }

  /** Resolves once stdout passes `test`; fails after `ms` with what was printed so far. */
  until(test: (stdout: string) => boolean, what: string, ms = 15_000): Promise<void> {
    return new Promise((done, fail) => {
      const timer = setTimeout(() => {
        this.child.kill();
        fail(new Error(`no ${what} within ${ms} ms; stdout:\n${this.stdout}\nstderr:\n${this.stderr}`));
      }, ms);
      const check = (): void => {
        if (!test(this.stdout)) return void this.waiters.push(check);
        clearTimeout(timer);
        done();
      };
      check();
    });
  }

  /** Ends the input and waits for the REPL to exit. */
  async end(): Promise<Ran> {
    this.child.stdin.end();
    const status = await this.exited;
    return { stdout: this.stdout, stderr: this.stderr, status };
  }

  private heard(take: () => void): void {
    take();
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) w();
  }
}
