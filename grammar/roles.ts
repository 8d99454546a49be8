// How the block loops of both readers (parser.ts, direct.ts) treat the next token,
// indexed by tokenTypeIdx.
import { EOF } from 'chevrotain';
import * as T from './lexer.ts';

export const PLAIN = 0;
/** ends a block if an enclosing construct owns it, else is stray */
export const CLOSER = 1;
/** always ends statement blocks (top-level keywords, end of file) */
export const ENDER = 2;

/** The largest tokenTypeIdx of the grammar's tokens (and of EOF). */
export const maxIdx = Math.max(EOF.tokenTypeIdx!, ...T.allTokens.map((t) => t.tokenTypeIdx!));

export const tokenRole = new Uint8Array(maxIdx + 1);
for (const t of [T.End, T.Endif, T.Else, T.Elseif, T.Endwhile, T.Endfor, T.Endset, T.Endactor, T.Endprop, T.Endflat]) {
  tokenRole[t.tokenTypeIdx!] = CLOSER;
}
for (const t of [T.On, T.SetKw, T.Actor, T.Prop, T.Flat, EOF]) tokenRole[t.tokenTypeIdx!] = ENDER;
