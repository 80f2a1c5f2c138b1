import { rmSync } from 'node:fs'

/**
 * Directories a benchmark is done with, removed when its process exits instead of between
 * measurements. On ext4 without a journal (this machine's disk: its inode allocator checks for
 * recently deleted inodes only then, ext4's ialloc.c), a file created where many inodes were
 * freed in the last minute (six while their inode table blocks are unwritten) costs the
 * allocator a skip and an inode table lookup for each of them: 9,000 files created in a fresh
 * directory took 125 µs of system CPU each right after 9,000 others were removed, 10 µs each
 * otherwise. A server measured just after the previous run's data directory was removed paid
 * for the benchmark's cleanup.
 */
const dirs = new Set<string>()

export function removeAtExit(dir: string): void {
  if (dirs.size === 0) process.once('exit', () => dirs.forEach((kept) => rmSync(kept, { recursive: true, force: true })))
  dirs.add(dir)
}
