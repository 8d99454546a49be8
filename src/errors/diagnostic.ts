// Every problem a script author sees — syntax, compile or runtime — is a Diagnostic:
// file:line:col, a plain message, a code frame, and for runtime errors the script call stack.
import { codeFrame } from './codeframe.ts';
import { shownMessage } from './text.ts';

export type DiagnosticKind = 'syntax error' | 'error' | 'runtime error' | 'warning';

export interface Diagnostic {
  kind: DiagnosticKind;
  file: string;
  line: number;
  col: number;
  length: number;
  message: string;
  /** Script call stack, innermost first, e.g. `steamhiss (set engine) at engine.pw:12:5`. */
  stack?: string[];
  /** A lint's code, e.g. `PW101` (docs/lints.md). */
  code?: string;
}

/** Thrown by builtins and the VM for a script-level failure; never shown with a JS stack. */
export class ScriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptError';
  }
}

/** Thrown when compilation fails; carries every problem found. */
export class CompileErrors extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'CompileErrors';
  }
}

export function formatDiagnostic(d: Diagnostic, source: string | undefined): string {
  // names and values in a message come from the script: long ones are cut, escapes made visible
  const head = `${shownMessage(d.file)}:${d.line}:${d.col}: ${d.kind}${d.code ? ` ${d.code}` : ''}: ${shownMessage(d.message)}`;
  const parts = [head];
  if (source !== undefined && d.line > 0) parts.push(codeFrame(source, d.line, d.col, d.length));
  if (d.stack && d.stack.length > 0) {
    parts.push('script call stack:');
    for (const s of d.stack) parts.push(`  ${shownMessage(s)}`);
  }
  return parts.join('\n');
}
