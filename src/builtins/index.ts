// All builtins, in one table: the compiler resolves names to indices in it.
import type { Builtin } from './registry.ts';
import { CORE } from './core.ts';
import { TIMING } from './timing.ts';
import { WORLD } from './world.ts';

export const BUILTINS: readonly Builtin[] = [...CORE, ...TIMING, ...WORLD];

export const BUILTIN_TABLE = {
  list: BUILTINS,
  index: new Map(BUILTINS.map((b, i) => [b.name, i] as const)),
};
