// A click as a host names it: "KIND NAME", e.g. "prop faucet" (World.click, an oracle's
// timed input, a snapshot's input still to come). One reading for all of them.

export const CLICK_KINDS = ['set', 'actor', 'prop', 'flat'] as const;
export type ClickKind = (typeof CLICK_KINDS)[number];

/** The object a click names, lower-cased, or null when the text is not "KIND NAME". */
export function parseClick(text: unknown): { objectKind: ClickKind; target: string } | null {
  if (typeof text !== 'string') return null;
  const parts = text.trim().toLowerCase().split(/\s+/);
  if (parts.length !== 2 || !(CLICK_KINDS as readonly string[]).includes(parts[0]!)) return null;
  return { objectKind: parts[0] as ClickKind, target: parts[1]! };
}

export const CLICK_RULE = `"KIND NAME" with a kind of ${CLICK_KINDS.slice(0, -1).join(', ')} or ${CLICK_KINDS.at(-1)}, e.g. "prop faucet"`;
