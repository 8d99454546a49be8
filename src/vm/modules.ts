// The modules generated code and the interpreter loop call into, as plain objects. A
// bundled module's namespace reads each export through a getter: a call on every use
// until the calling code is optimised, and more for the optimiser to see through.
import * as ops from './ops.ts';
import * as door from './call.ts';
import * as guard from './guard.ts';

export const OPS_MODULE: typeof ops = { ...ops };
export const DOOR_MODULE: typeof door = { ...door };
export const GUARD_MODULE: typeof guard = { ...guard };
