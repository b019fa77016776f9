import { useCallback, useEffect, useState } from "react";

/**
 * `value`, once it stopped changing for `ms`. The second element applies the latest value
 * at once (e.g. on Ctrl+Enter).
 */
export function useDebouncedValue<T>(value: T, ms: number): [T, () => void] {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  const flush = useCallback(() => setDebounced(value), [value]);
  return [debounced, flush];
}
