// The input every layer reads: one file of the repository. Defined at the bottom so the readers
// (manifest, config) need not import the review that calls them.

/** A file of the repository at one commit. Paths are POSIX, relative to the repository root. */
export interface SourceFile {
  path: string;
  content: string;
}
