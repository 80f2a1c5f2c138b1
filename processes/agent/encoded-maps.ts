import { splicedBytes, type SplicePart } from '../../core/reading/spliced-map.ts'

const encoder = new TextEncoder()

/** A map's text and its UTF-8, the start of `memory`. */
interface Encoded {
  text: string
  bytes: Uint8Array
  memory: Uint8Array
}

/**
 * The UTF-8 of the maps the agent installed, kept so that a map's next text, spliced from its
 * text before (pull-generation), is written from them: the ranges kept are copied and only the
 * lines put in are encoded. At 20,000 Ingresses a map is megabytes, and writing its text made
 * Node flatten and encode all of it at every change (some 10 ms a map, 27 ms a path change).
 * A map is encoded whole the first time it changes, and kept from then on.
 *
 * The splice is written to the memory of the bytes kept before the ones it starts from, which
 * nothing reads once those are installed: on a machine whose page faults are dear, megabytes
 * copied to fresh memory cost its every page's first touch (3 MB: 7.8 ms here, 0.14 ms reused).
 */
export class EncodedMaps {
  /** By path: the text installed and its bytes. */
  private kept = new Map<string, Encoded>()
  /** Made for the generation being installed, kept once it is (or once another with the same texts is: they are their bytes all the same). */
  private pending = new Map<string, Encoded>()
  /** By path, memory no bytes kept or pending are in: where the next splice is written. */
  private spare = new Map<string, Uint8Array>()

  /**
   * The bytes to write for `text`, the next text of `path`, which `parts` make of `before`:
   * spliced from the bytes kept of `before` where they are kept, else encoded whole.
   */
  bytesFor(path: string, text: string, before: string, parts: readonly SplicePart[]): Uint8Array {
    const kept = this.kept.get(path)
    let memory: Uint8Array | undefined
    const into = (length: number) => {
      const spare = this.spare.get(path)
      // Room to grow by a sixty-fourth, so that the memory serves the next changes too.
      memory = spare && spare.length >= length ? spare : new Uint8Array(length + (length >> 6))
      this.spare.delete(path)
      return memory
    }
    const spliced = kept?.text === before ? splicedBytes(before, kept.bytes, parts, into) : undefined
    const bytes = spliced ?? encoder.encode(text)
    // The text is the next splice's base: flattened now, after the runtime API, not by the next pull's search (one character read does it).
    text.charCodeAt(0)
    const replaced = this.pending.get(path)
    if (replaced) this.release(path, replaced)
    this.pending.set(path, { text, bytes, memory: spliced && memory ? memory : bytes })
    return bytes
  }

  /** The generation whose files are `files` is installed: what was made for it is kept, and what no longer matches its files is dropped. */
  installed(files: ReadonlyMap<string, string>): void {
    const kept = new Map<string, Encoded>()
    for (const [path, entry] of [...this.kept, ...this.pending]) if (files.get(path) === entry.text) kept.set(path, entry)
    for (const [path, entry] of [...this.kept, ...this.pending]) if (kept.get(path) !== entry) this.release(path, entry)
    this.kept = kept
    this.pending = new Map()
  }

  /** `entry`'s memory is no longer read: the next splice of `path` may be written to it. */
  private release(path: string, entry: Encoded): void {
    const spare = this.spare.get(path)
    if (!spare || spare.length < entry.memory.length) this.spare.set(path, entry.memory)
  }
}
