import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StreamParser } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

/** DQL keywords (DQL.md §3), matched case-insensitively. */
export const DQL_KEYWORDS = [
  "AND", "AS", "ASC", "BY", "DESC", "FALSE", "HAVING", "IN", "LIMIT", "LINEAR", "NIL", "NOT",
  "OFFSET", "OR", "ORDER", "PREVIOUS", "SLIMIT", "SOFFSET", "SORDER", "TRUE",
];

/** Functions offered by completion and highlighted as functions. */
export const DQL_FUNCTIONS = [
  "avg", "sum", "min", "max", "count", "first", "last", "percentile", "median", "stddev", "spread",
  "mode", "count_distinct", "distinct", "top", "bottom", "derivative", "difference",
  "non_negative_derivative", "non_negative_difference", "moving_average", "log", "round", "abs",
  "fill", "re", "show_measurement", "show_field_key", "show_tag_key", "show_tag_value",
];

const keywordSet = new Set(DQL_KEYWORDS.map((k) => k.toLowerCase()));
const functionSet = new Set(DQL_FUNCTIONS);

interface DqlState {
  inTime: boolean;
}

const parser: StreamParser<DqlState> = {
  name: "dql",
  startState: () => ({ inTime: false }),
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.match("#")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match(/^re`[^`]*`?/) || stream.match(/^re'(?:[^'\\]|\\.)*'?/) || stream.match(/^re"(?:[^"\\]|\\.)*"?/)) {
      return "regexp";
    }
    if (stream.match(/^'(?:[^'\\]|\\.)*'?/) || stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string";
    if (stream.match(/^`[^`]*`?/)) return "variableName.special";
    if (stream.match(/^::/)) return "punctuation";
    if (stream.match(/^(?:\d+(?:ms|us|ns|s|m|h|d|w|y))+/)) return "number";
    if (stream.match(/^\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/)) return "number";
    if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      const word = stream.current();
      const lower = word.toLowerCase();
      if ((lower === "m" || lower === "metric") && stream.match(/^\s*::/, false)) return "namespace";
      if (keywordSet.has(lower)) return "keyword";
      if (functionSet.has(lower) && stream.match(/^\s*\(/, false)) return "variableName.function";
      if (stream.match(/^\s*\(/, false)) return "variableName.function";
      return state.inTime ? "number" : "variableName";
    }
    const ch = stream.next();
    if (ch === "[") state.inTime = true;
    if (ch === "]") state.inTime = false;
    if (ch && "()[]{}".includes(ch)) return "bracket";
    if (ch && "=!<>+-*/%^&|".includes(ch)) {
      stream.eatWhile(/[=&|]/);
      return "operator";
    }
    return "punctuation";
  },
  languageData: { commentTokens: { line: "#" }, closeBrackets: { brackets: ["(", "[", "{", "'", '"', "`"] } },
};

export const dqlLanguage = StreamLanguage.define(parser);

/** Colours follow the page's CSS variables so light and dark themes both work. */
export const dqlHighlight = syntaxHighlighting(
  HighlightStyle.define([
    { tag: t.keyword, color: "var(--syn-keyword)", fontWeight: "600" },
    { tag: t.namespace, color: "var(--syn-keyword)", fontWeight: "600" },
    { tag: t.function(t.variableName), color: "var(--syn-function)" },
    { tag: t.string, color: "var(--syn-string)" },
    { tag: t.regexp, color: "var(--syn-regexp)" },
    { tag: t.number, color: "var(--syn-number)" },
    { tag: t.comment, color: "var(--syn-comment)", fontStyle: "italic" },
    { tag: t.special(t.variableName), color: "var(--syn-ident)" },
    { tag: t.operator, color: "var(--syn-operator)" },
  ]),
);
