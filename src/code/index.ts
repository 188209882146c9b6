// Application code as a source of CQL statements (model files). Pure but for grammars.ts, which
// loads the tree-sitter grammars; shells pass `grammars.parser` to `readCode`.
export { extractStatements, isCqlStatement, CODE_LIMITS, type ParserFor } from "./extract.js";
export { isCodeFile, languagesToRead, readCode } from "./read.js";
export { languageOf, type CodeExtraction, type CodeFile, type CodeLanguage, type CodeStatement, type DynamicStatement } from "./types.js";
