// The script editor: CodeMirror 6 with Pocketwatch highlighting read off the
// language's own lexer, and the compiler's diagnostics shown inline as you type.
import { EditorState, RangeSetBuilder, StateEffect, type Text } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, keymap, lineNumbers, highlightActiveLine, type DecorationSet, type ViewUpdate } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { linter, lintGutter, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import { highlight, type Diagnostic, type HighlightKind } from '../src/api/index.ts';

const MARKS: Partial<Record<HighlightKind, Decoration>> = {};
for (const kind of ['keyword', 'atom', 'string', 'number', 'comment', 'builtin', 'operator'] as const) MARKS[kind] = Decoration.mark({ class: `pw-${kind}` });

function decorate(doc: Text): DecorationSet {
  const b = new RangeSetBuilder<Decoration>();
  for (const s of highlight(doc.toString())) {
    const mark = MARKS[s.kind];
    if (mark && s.to > s.from) b.add(s.from, s.to, mark);
  }
  return b.finish();
}

const pocketwatchHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view.state.doc);
    }
    update(u: ViewUpdate): void {
      if (u.docChanged) this.decorations = decorate(u.state.doc);
    }
  },
  { decorations: (p) => p.decorations },
);

/** A diagnostic's place in the document: line and column to offsets, kept inside the text. */
export function lintRange(doc: Text, d: Pick<Diagnostic, 'line' | 'col' | 'length'>): { from: number; to: number } {
  const line = doc.line(Math.min(Math.max(1, d.line), doc.lines));
  const from = Math.min(line.from + Math.max(0, d.col - 1), line.to);
  const to = Math.min(Math.max(from + Math.max(1, d.length), from), line.to);
  return { from, to: to > from ? to : Math.min(from + 1, doc.length) };
}

/** Marks a transaction that says the problems changed without the text changing (a runtime error). */
const problemsChanged = StateEffect.define<null>();

export interface ScriptEditor {
  view: EditorView;
  /** Shows the problems again (they changed while the text did not). */
  refreshProblems(): void;
  /** The text of every file, the shown one as edited. */
  texts(): { name: string; text: string }[];
  show(file: string): void;
  readonly current: string;
}

/**
 * One editor over several files (one state each, so each keeps its own undo history).
 * `problems` compiles the files as they stand and returns the diagnostics of one.
 */
export function createEditor(parent: HTMLElement, files: { name: string; text: string }[], problems: (file: string) => Diagnostic[]): ScriptEditor {
  const states = new Map<string, EditorState>();
  const stateFor = (name: string, text: string) =>
    EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLine(),
        history(),
        keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
        pocketwatchHighlight,
        lintGutter(),
        linter((v): LintDiagnostic[] => problems(name).map((d) => ({ ...lintRange(v.state.doc, d), severity: d.severity, message: d.message, source: d.kind })), {
          delay: 250,
          needsRefresh: (u) => u.transactions.some((tr) => tr.effects.some((e) => e.is(problemsChanged))),
        }),
        EditorView.theme(
          {
            '&': { color: '#d8dde6', fontSize: '13px' },
            '.cm-gutters': { background: '#1a1d23', color: '#5c6370', border: 'none' },
            '.cm-activeLine': { background: '#262a33' },
            '.cm-cursor': { borderLeftColor: '#e0b15a' },
          },
          { dark: true },
        ),
      ],
    });
  for (const f of files) states.set(f.name, stateFor(f.name, f.text));
  let current = files[0]!.name;
  const view = new EditorView({ state: states.get(current)!, parent });
  return {
    view,
    get current() {
      return current;
    },
    refreshProblems: () => view.dispatch({ effects: problemsChanged.of(null) }),
    texts: () => files.map((f) => ({ name: f.name, text: (f.name === current ? view.state : states.get(f.name)!).doc.toString() })),
    show(file: string) {
      if (file === current || !states.has(file)) return;
      states.set(current, view.state);
      current = file;
      view.setState(states.get(file)!);
    },
  };
}
