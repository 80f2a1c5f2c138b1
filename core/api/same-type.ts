/** True when A and B are assignable both ways: a schema's inferred type checked against a type written by hand. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false

/** Fails to compile unless its argument is `true`. */
export type Assert<T extends true> = T
