import nock from "nock";
import { expect } from "vitest";
import { SourceSpan } from "../src/cql/source-span.js";

// No test may reach the network: GitHub is mocked with nock scopes in each end-to-end test.
nock.disableNetConnect();

// The parser's ranges are SourceSpans, which make `start` and `end` when read; tests compare any
// range by those two positions, as a plain { start, end } object.
expect.addEqualityTesters([
  function rangesByPosition(a: unknown, b: unknown, customTesters) {
    if (!(a instanceof SourceSpan) && !(b instanceof SourceSpan)) return undefined;
    return this.equals(asPlainRange(a), asPlainRange(b), customTesters);
  },
]);

function asPlainRange(value: unknown): unknown {
  return value instanceof SourceSpan ? value.toJSON() : value;
}
