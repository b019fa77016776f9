import { StreamLanguage, type StreamParser } from "@codemirror/language";

/** PromQL keywords and operators written as words: aggregation modifiers, vector matching. */
export const PROMQL_KEYWORDS = [
  "by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool", "and", "or", "unless", "atan2",
];

/** Aggregations and functions offered by completion (PromQL's, and MetricsQL's most used). */
export const PROMQL_FUNCTIONS = [
  "sum", "avg", "min", "max", "count", "count_values", "group", "stddev", "stdvar", "topk", "bottomk", "quantile",
  "rate", "irate", "increase", "delta", "idelta", "deriv", "predict_linear", "resets", "changes",
  "avg_over_time", "min_over_time", "max_over_time", "sum_over_time", "count_over_time", "last_over_time",
  "quantile_over_time", "stddev_over_time", "present_over_time", "absent", "absent_over_time",
  "histogram_quantile", "label_replace", "label_join", "abs", "ceil", "floor", "round", "clamp", "clamp_min",
  "clamp_max", "exp", "ln", "log2", "log10", "sqrt", "scalar", "vector", "time", "timestamp", "sort", "sort_desc",
  "day_of_week", "hour", "minute", "month", "year",
];

const keywordSet = new Set(PROMQL_KEYWORDS);

const parser: StreamParser<Record<string, never>> = {
  name: "promql",
  startState: () => ({}),
  token(stream) {
    if (stream.eatSpace()) return null;
    if (stream.match("#")) {
      stream.skipToEnd();
      return "comment";
    }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'(?:[^'\\]|\\.)*'?/) || stream.match(/^`[^`]*`?/)) return "string";
    if (stream.match(/^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/)) return "variableName.special";
    if (stream.match(/^(?:\d+(?:ms|s|m|h|d|w|y))+/)) return "number";
    if (stream.match(/^\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/)) return "number";
    if (stream.match(/^[A-Za-z_:][A-Za-z0-9_:.]*/)) {
      const word = stream.current();
      if (keywordSet.has(word.toLowerCase())) return "keyword";
      if (stream.match(/^\s*\(/, false)) return "variableName.function";
      return "variableName";
    }
    const ch = stream.next();
    if (ch && "()[]{}".includes(ch)) return "bracket";
    if (ch && "=!<>+-*/%^~".includes(ch)) {
      stream.eatWhile(/[=~]/);
      return "operator";
    }
    return "punctuation";
  },
  languageData: { commentTokens: { line: "#" }, closeBrackets: { brackets: ["(", "[", "{", "'", '"', "`"] } },
};

/** PromQL for the query editor: the highlighting uses `dqlHighlight`'s colours. */
export const promqlLanguage = StreamLanguage.define(parser);
