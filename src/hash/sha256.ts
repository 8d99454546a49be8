// SHA-256 in plain JavaScript, so the same code hashes in Node and in a browser.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** The SHA-256 of a text's UTF-8 bytes, as 64 hex digits. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** The SHA-256 of several texts, each followed by a NUL, as hex. */
export function sha256OfParts(parts: readonly string[]): string {
  const h = sha256.create();
  for (const p of parts) h.update(utf8ToBytes(p)).update(NUL);
  return bytesToHex(h.digest());
}

const NUL = new Uint8Array([0]);
