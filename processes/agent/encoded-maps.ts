import { splicedBytes, type SplicePart } from '../../core/reading/spliced-map.ts'

const encoder = new TextEncoder()

/**
 * The UTF-8 of the maps the agent installed, kept so that a map's next text, spliced from its
 * text before (pull-generation), is written from them: the ranges kept are copied and only the
 * lines put in are encoded. At 20,000 Ingresses a map is megabytes, and writing its text made
 * Node flatten and encode all of it at every change (some 10 ms a map, 27 ms a path change).
 * A map is encoded whole the first time it changes, and kept from then on.
 */
export class EncodedMaps {
  /** By path: the text installed and its bytes. */
  private kept = new Map<string, { text: string; bytes: Uint8Array }>()
  /** Made for the generation being installed, kept once it is (or once another with the same texts is: they are their bytes all the same). */
  private pending = new Map<string, { text: string; bytes: Uint8Array }>()

  /**
   * The bytes to write for `text`, the next text of `path`, which `parts` make of `before`:
   * spliced from the bytes kept of `before` where they are kept, else encoded whole.
   */
  bytesFor(path: string, text: string, before: string, parts: readonly SplicePart[]): Uint8Array {
    const kept = this.kept.get(path)
    const bytes = (kept?.text === before && splicedBytes(before, kept.bytes, parts)) || encoder.encode(text)
    // The text is the next splice's base: flattened now, after the runtime API, not by the next pull's search (one character read does it).
    text.charCodeAt(0)
    this.pending.set(path, { text, bytes })
    return bytes
  }

  /** The generation whose files are `files` is installed: what was made for it is kept, and what no longer matches its files is dropped. */
  installed(files: ReadonlyMap<string, string>): void {
    const kept = new Map<string, { text: string; bytes: Uint8Array }>()
    for (const [path, entry] of [...this.kept, ...this.pending]) if (files.get(path) === entry.text) kept.set(path, entry)
    this.kept = kept
    this.pending = new Map()
  }
}
