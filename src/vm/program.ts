// The compiled program: immutable once built, shared by every thread and every
// world that runs it. All mutable state lives in the world state, never here.
import type { ObjectKind } from '../../grammar/ast.ts';
import type { Value } from './value.ts';
import { dict } from './dict.ts';
import type { HostBuiltin } from '../signatures/table.ts';

export interface HandlerCode {
  name: string; // lower-cased
  spelled: string;
  /** Index into Program.objects, or -1 for a global handler. */
  object: number;
  params: number;
  /** Registers the frame needs (params first, then locals, then temporaries). */
  registers: number;
  code: Int32Array;
  consts: Value[];
  /** Source position of each instruction, by the instruction's first word. */
  lines: Int32Array;
  cols: Int32Array;
  file: string;
  line: number;
  col: number;
  /** Names of the registers that hold named variables, for the debugger and messages. */
  localNames: string[];
  noLoopCheck: boolean;
}

export interface ObjectInfo {
  kind: ObjectKind;
  name: string; // lower-cased
  spelled: string;
  file: string;
  line: number;
  /** property name → index into the object's property values */
  properties: string[];
  /** handler name → index into Program.handlers */
  handlers: Record<string, number>;
  /** Handler index that initialises the properties, or -1. */
  init: number;
}

export interface Program {
  handlers: HandlerCode[];
  objects: ObjectInfo[];
  /** `${kind}:${name}` → object index */
  objectIndex: Record<string, number>;
  /** global handler name → handler index */
  globalHandlers: Record<string, number>;
  /** every `startup` handler, in load order */
  startups: number[];
  /** global variable names, by index */
  globals: string[];
  /** file name → source text, for code frames */
  sources: Record<string, string>;
  /** A fingerprint of the sources, so a saved world is never restored into other scripts. */
  fingerprint: string;
  /** The builtins the host declared, as compiled: the VM numbers them after its own, in this order. */
  hostBuiltins: readonly HostBuiltin[];
}

export function objectKey(kind: ObjectKind, name: string): string {
  return `${kind}:${name}`;
}

export function emptyProgram(): Program {
  return {
    handlers: [],
    objects: [],
    objectIndex: dict(),
    globalHandlers: dict(),
    startups: [],
    globals: [],
    sources: dict(),
    fingerprint: '',
    hostBuiltins: [],
  };
}
