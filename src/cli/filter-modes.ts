// The names `--filter-mode` accepts (see filter-mode.ts), apart from the filter itself: the
// command line checks its arguments without loading the review.

export const FILTER_MODES = ["added", "diff_context", "file", "nofilter"] as const;
export type FilterMode = (typeof FILTER_MODES)[number];
