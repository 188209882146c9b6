// A stand-in for @actions/core that records what the Action says, as the workflow log would show it.
import type { ActionToolkit } from "../../src/github/action-runner.js";

export interface RecordingToolkit extends ActionToolkit {
  outputs: Record<string, string>;
  summaries: string[];
}

export function recordingToolkit(output: string[], inputs: Record<string, string> = {}): RecordingToolkit {
  const outputs: Record<string, string> = {};
  const summaries: string[] = [];
  return {
    outputs,
    summaries,
    getInput: (name) => inputs[name] ?? "",
    setOutput: (name, value) => void (outputs[name] = value),
    debug: (message) => void output.push(`::debug::${message}`),
    info: (message) => void output.push(message),
    warning: (message) => void output.push(`::warning::${message}`),
    error: (message) => void output.push(`::error::${message}`),
    appendSummary: async (markdown) => void summaries.push(markdown),
  };
}
