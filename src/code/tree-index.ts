// One walk over a parsed tree, recording each node's parent. tree-sitter's own `node.parent`
// searches down from the root on every call, so climbing from a node to the root costs the square
// of its depth; a long builder chain (20,000 calls nested in each other) made that hours of work.
// Here the whole tree is walked once, iteratively, and the walk stops as soon as the file has more
// nodes or more nesting than the limits allow: such a file is not read (extract.ts says why).
import type { Node, Tree } from "web-tree-sitter";

/** Why a tree is not indexed: over the limit on nodes or on nesting it was walked against. */
export interface TreeOverLimit {
  over: "nodes" | "depth";
}

export interface TreeIndex {
  /** nodes of the tree, named or not */
  nodes: number;
  /** the deepest nesting of the tree (the root is at 0) */
  depth: number;
}

/** Each indexed tree's parents, by node id (a node's id is unique within its tree). */
const parents = new WeakMap<Tree, Map<number, Node>>();

/**
 * Walks `tree` once and records every node's parent, for `parentOf`. Stops at the first node past
 * `maxNodes` or deeper than `maxDepth`, and then records nothing.
 */
export function indexTree(tree: Tree, maxNodes: number, maxDepth: number): TreeIndex | TreeOverLimit {
  const map = new Map<number, Node>();
  const cursor = tree.walk();
  const stack: Node[] = [];
  let nodes = 0;
  let deepest = 0;
  try {
    for (;;) {
      if (++nodes > maxNodes) return { over: "nodes" };
      const parent = stack[stack.length - 1];
      if (parent) map.set(cursor.nodeId, parent);
      if (cursor.gotoFirstChild()) {
        // Only a node with children is ever a parent: only those become Node objects.
        cursor.gotoParent();
        stack.push(cursor.currentNode);
        cursor.gotoFirstChild();
        if (stack.length > maxDepth) return { over: "depth" };
        deepest = Math.max(deepest, stack.length);
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          parents.set(tree, map);
          return { nodes, depth: deepest };
        }
        stack.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}

/** A node's parent: from the index when its tree has one (constant time), else tree-sitter's own search. */
export function parentOf(node: Node): Node | undefined {
  const map = parents.get(node.tree);
  if (map) return map.get(node.id);
  return node.parent ?? undefined;
}

/** Each tree's answers of `enclosingOf`, by the types asked for and the node's id. */
const enclosingAnswers = new WeakMap<Tree, Map<string, Map<number, Node | undefined>>>();

/**
 * The nearest ancestor of one of `types`. Remembered for every node climbed through, so the
 * many names of one deep chain of calls do not each climb the whole chain again.
 */
export function enclosingOf(node: Node, types: readonly string[]): Node | undefined {
  let byTypes = enclosingAnswers.get(node.tree);
  if (!byTypes) enclosingAnswers.set(node.tree, (byTypes = new Map()));
  const key = types.join(",");
  let answers = byTypes.get(key);
  if (!answers) byTypes.set(key, (answers = new Map()));
  if (answers.has(node.id)) return answers.get(node.id);
  const climbed: Node[] = [node];
  let found: Node | undefined;
  for (let current = node; ; ) {
    const parent = parentOf(current);
    if (!parent) break;
    if (types.includes(parent.type)) {
      found = parent;
      break;
    }
    if (answers.has(parent.id)) {
      found = answers.get(parent.id);
      break;
    }
    climbed.push(parent);
    current = parent;
  }
  for (const each of climbed) answers.set(each.id, found);
  return found;
}

/** The ancestors of a node, nearest first. */
export function ancestorsOf(node: Node): Node[] {
  const out: Node[] = [];
  for (let parent = parentOf(node); parent; parent = parentOf(parent)) out.push(parent);
  return out;
}
