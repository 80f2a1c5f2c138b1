/** Separates a table's name, keys and members in a snapshot tree key; validated names never hold it. */
export const SEPARATOR = '\u0001'
