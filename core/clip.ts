/** Cuts a text to `limit` characters, ending in `…` when it was cut, so a reader knows there was more. */
export function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`
}
