// Where a running world's engine is made, for every face and host: the program with its
// builtins (ours and the host's declared ones), the host that prints and traces, the options.
import { Engine, type EngineHost, type EngineOptions } from '../engine/engine.ts';
import { builtinsFor } from '../builtins/host.ts';
import type { Program } from '../vm/program.ts';

/** A new engine for `program`, its boot not yet run. */
export function startEngine(program: Program, host: EngineHost, options: Partial<EngineOptions> = {}): Engine {
  return new Engine(program, builtinsFor(program), host, options);
}
