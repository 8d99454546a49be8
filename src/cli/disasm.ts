// `pw disasm FILE…`: the compiled form, instruction by instruction, with source lines.
import { readScripts } from '../node/load.ts';
import { loadProgram } from '../engine/load.ts';
import { loadProject } from '../project/index.ts';
import { disassembleProgram } from '../compiler/disasm.ts';
import { formatDiagnostic } from '../errors/diagnostic.ts';
import { builtinsFor } from '../builtins/host.ts';
import { stderr, stdout } from '../node/terminal.ts';

export function disasmCommand(files: string[], withStdlib: boolean): number {
  const sources = readScripts(files);
  const loaded = loadProgram(sources, true, { host: loadProject(files).builtins });
  if (!loaded.program) {
    for (const d of loaded.diagnostics) stderr.line(formatDiagnostic(d, loaded.sources[d.file]) + '\n');
    return 1;
  }
  const only = withStdlib ? undefined : new Set(sources.map((s) => s.file));
  stdout.line(disassembleProgram(loaded.program, builtinsFor(loaded.program), only));
  return 0;
}
