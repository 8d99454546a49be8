// Types of client.mjs, for the TypeScript tests.
import type { ChildProcess } from 'node:child_process';
import type { MessageConnection } from 'vscode-jsonrpc/node';

export interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface LspDiagnostic {
  range: LspRange;
  severity: number;
  code?: string;
  message: string;
}

export interface TestServer {
  child: ChildProcess;
  connection: MessageConnection;
  capabilities: Record<string, unknown>;
  logs: string[];
  stderr(): string;
  request(method: string, params?: unknown): Promise<unknown>;
  open(path: string, text: string): void;
  change(path: string, range: LspRange, text: string): void;
  published(): number;
  diagnostics(path: string, test?: (d: LspDiagnostic[]) => boolean, after?: number, ms?: number): Promise<LspDiagnostic[]>;
  hover(path: string, line: number, character: number): Promise<unknown>;
  completion(path: string, line: number, character: number): Promise<unknown>;
  definition(path: string, line: number, character: number): Promise<unknown>;
  stop(): Promise<number | null>;
}

export function uriOf(path: string): string;
export function startServer(folder: string | null, initializationOptions?: unknown): Promise<TestServer>;
