import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionSource } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState, Prec } from "@codemirror/state";
import { EditorView, keymap, placeholder as placeholderExt } from "@codemirror/view";
import { useEffect, useRef, type ReactElement } from "react";
import type { QueryLanguage } from "@/lib/dql/promql";
import { dqlHighlight, dqlLanguage } from "./dqlLanguage";
import { promqlLanguage } from "./promqlLanguage";

export interface EditorError {
  /** UTF-16 indexes into the text. */
  from: number;
  to: number;
  message: string;
}

export interface DqlEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** Ctrl/Cmd+Enter. */
  onRun: () => void;
  error?: EditorError;
  completion?: CompletionSource;
  label?: string;
  placeholder?: string;
  /** How the text is highlighted: DQL (default) or PromQL. */
  language?: QueryLanguage;
}

/**
 * CodeMirror 6 editor for DQL or PromQL: highlighting, bracket matching and auto-closing, history,
 * completion (when a source is given) and the query error underlined at its range. Tab moves
 * focus on, as in any other field.
 */
export function DqlEditor({
  value,
  onChange,
  onRun,
  error,
  completion,
  label = "DQL query",
  placeholder = "M::cpu:(avg(usage_user)) [15m::1m] BY host",
  language = "dql",
}: DqlEditorProps): ReactElement {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  const onRunRef = useRef(onRun);
  onChangeRef.current = onChange;
  onRunRef.current = onRun;
  const completionCompartment = useRef(new Compartment());
  const labelCompartment = useRef(new Compartment());
  const languageCompartment = useRef(new Compartment());
  const placeholderCompartment = useRef(new Compartment());

  useEffect(() => {
    if (!host.current) return;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          history(),
          bracketMatching(),
          closeBrackets(),
          languageCompartment.current.of(language === "promql" ? promqlLanguage : dqlLanguage),
          dqlHighlight,
          lintGutter(),
          placeholderCompartment.current.of(placeholderExt(placeholder)),
          EditorView.lineWrapping,
          completionCompartment.current.of([]),
          Prec.highest(
            keymap.of([
              {
                key: "Mod-Enter",
                run: () => {
                  onRunRef.current();
                  return true;
                },
              },
            ]),
          ),
          // Tab and Shift+Tab are left to the browser: they move focus to the next and previous
          // control, so the editor is no trap for keyboard users (DQL rarely needs indenting;
          // Enter starts a new line, and completions are taken with Enter)
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
          labelCompartment.current.of(EditorView.contentAttributes.of({ "aria-label": label, "data-testid": "dql-editor" })),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) onChangeRef.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is created once; value/error/completion changes are applied below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const current = v.state.doc.toString();
    if (current !== value) v.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  // the name can change (a panel's only query is "Panel query", then "Panel query A" beside B)
  useEffect(() => {
    view.current?.dispatch({
      effects: labelCompartment.current.reconfigure(
        EditorView.contentAttributes.of({ "aria-label": label, "data-testid": "dql-editor" }),
      ),
    });
  }, [label]);

  useEffect(() => {
    view.current?.dispatch({
      effects: [
        languageCompartment.current.reconfigure(language === "promql" ? promqlLanguage : dqlLanguage),
        placeholderCompartment.current.reconfigure(placeholderExt(placeholder)),
      ],
    });
  }, [language, placeholder]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch({
      effects: completionCompartment.current.reconfigure(
        completion ? autocompletion({ override: [completion], activateOnTyping: true }) : [],
      ),
    });
  }, [completion]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const len = v.state.doc.length;
    const diagnostics: Diagnostic[] = error
      ? [
          {
            from: Math.min(error.from, len),
            to: Math.min(Math.max(error.to, error.from + 1), len),
            severity: "error",
            message: error.message,
          },
        ]
      : [];
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [error, value]);

  return <div className="dql-editor" ref={host} />;
}
