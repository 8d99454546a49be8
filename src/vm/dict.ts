// Tables keyed by names a script chooses (actors, stars, sounds, handlers…) have no
// prototype: a script naming something "constructor" or "__proto__" must find only
// what it defined, and must never reach an object of the host.

export type Dict<T> = Record<string, T>;

/** A prototype-free table, optionally filled from another (a copy or a parsed snapshot). */
export function dict<T>(from?: Record<string, T>): Dict<T> {
  const d = Object.create(null) as Dict<T>;
  if (from) for (const k of Object.keys(from)) d[k] = from[k];
  return d;
}
