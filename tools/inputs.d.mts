export const INPUTS_FILE: string;
/** The hash of the build's inputs under `root` (the project folder). */
export function inputsHash(root?: string): string;
