// Lines and columns as the client counts them: from 1 unless its initialize request
// says from 0. The debugger counts from 1 throughout and turns them at the door.
import type { DebugProtocol } from '@vscode/debugprotocol';
import { Refused } from './channel.ts';

export class ClientPlaces {
  private lineBase = 1;
  private colBase = 1;

  /** The initialize request: whether lines and columns start at 1 (the default) or 0. */
  initialize(a: Record<string, unknown>): void {
    this.lineBase = a.linesStartAt1 === false ? 0 : 1;
    this.colBase = a.columnsStartAt1 === false ? 0 : 1;
  }

  /** A line of the debugger's, as the client counts it. */
  line(n: number): number {
    return n - 1 + this.lineBase;
  }

  col(n: number): number {
    return n - 1 + this.colBase;
  }

  /** A line of the client's, as the debugger counts it (from 1). */
  fromClient(n: number): number {
    return n - this.lineBase + 1;
  }

  /** A setBreakpoints request's lines, as the debugger counts them (from 1). */
  breakpointLines(a: Record<string, unknown>): DebugProtocol.SourceBreakpoint[] {
    const wanted: unknown[] = Array.isArray(a.breakpoints) ? a.breakpoints : Array.isArray(a.lines) ? a.lines.map((line: unknown) => ({ line })) : [];
    return wanted.map((w) => {
      const b = w as DebugProtocol.SourceBreakpoint;
      if (b === null || typeof b !== 'object' || !Number.isInteger(b.line)) throw new Refused('each breakpoint needs a whole line number');
      return { ...b, line: this.fromClient(b.line) };
    });
  }

  /** A breakpoint as the client counts its line and column. */
  breakpoint(b: DebugProtocol.Breakpoint): DebugProtocol.Breakpoint {
    return { ...b, line: b.line === undefined ? undefined : this.line(b.line), column: b.column === undefined ? undefined : this.col(b.column) };
  }
}
