'use client';
/**
 * The Playground's Evals part (issue 27): the evals store (evals-store.ts) wired to the Playground's
 * settings — the models offered are the Playground's own (the second too when comparing), then the
 * eval file's — and to the tools of the servers the Playground offers the model (SendContext).
 */
import type { ReactNode } from 'react';
import { downloadData } from '@/components/ui/download.ts';
import { EvalCases, type CaseActions } from '@/components/evals/cases.tsx';
import { EvalControls, type OfferedModel } from '@/components/evals/controls.tsx';
import { EvalResults } from '@/components/evals/results.tsx';
import { Panel } from '@/components/ui/ui.tsx';
import { modelWordOf } from '../../lib/evals/models.ts';
import type { EvalsState, EvalsStore } from '../_stores/evals-store.ts';
import { configOf, type PlaygroundState, type SendContext } from '../_stores/playground-store.ts';
import { useServices } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

/** The Playground's models (as set up above), then the file's, each once. */
function offeredModels(playground: PlaygroundState, fileModels: readonly string[]): OfferedModel[] {
  const out: OfferedModel[] = [];
  const add = (word: string, from: string) => {
    if (!out.some((m) => m.word === word)) out.push({ word, from });
  };
  const [first, second] = playground.providers;
  if (first.model.trim() !== '') add(modelWordOf(configOf(first, playground.keys)), 'the Playground’s model');
  if (playground.compare && second.model.trim() !== '') add(modelWordOf(configOf(second, playground.keys)), 'the second model');
  for (const word of fileModels) add(word, 'the eval file');
  return out;
}

function statusOf(state: EvalsState): string | undefined {
  if (state.running) return `Running: ${state.records.length} of ${state.planned} runs done.`;
  if (state.records.length === 0) return undefined;
  const passed = state.records.filter((r) => r.verdict.pass).length;
  const stopped = state.records.length < state.planned ? ` (stopped: ${state.planned - state.records.length} not run)` : '';
  return `${state.records.length} runs: ${passed} passed, ${state.records.length - passed} failed${stopped}.`;
}

function caseActions(store: EvalsStore): CaseActions {
  return {
    onCase: (i, patch) => store.setCase(i, patch),
    onRemoveCase: (i) => store.removeCase(i),
    onAddTool: (i) => store.addTool(i),
    onTool: (i, j, patch) => store.setTool(i, j, patch),
    onRemoveTool: (i, j) => store.removeTool(i, j),
  };
}

function exportFile(store: EvalsStore): void {
  const text = store.exportText();
  if (text !== undefined) downloadData(text, 'evals.json', 'application/json');
}

export function EvalsContainer({ ctx }: { ctx: SendContext | undefined }): ReactNode {
  const { evals: store, playground } = useServices();
  const state = useStore(store);
  const settings = useStore(playground);
  const offered = offeredModels(settings, state.draft.models);
  const words = offered.map((m) => m.word);
  return (
    <Panel label="Evals" title="Evals">
      <div className="space-y-4">
        <p className="text-sm text-zinc-700 dark:text-zinc-200">
          Each case is a prompt and what the model should do with the tools above. Runs approve every call except to a forbidden tool, which is refused and never made.
        </p>
        <EvalControls
          offered={offered}
          chosen={store.chosen(words)}
          repeats={state.draft.repeats}
          running={state.running}
          runProblem={store.runProblem(ctx, words)}
          problem={state.problem}
          note={state.note}
          status={statusOf(state)}
          onChoose={(word, on) => store.choose(word, on)}
          onAddModel={(word) => store.addModel(word)}
          onRemoveModel={(word) => store.removeModel(word)}
          onRepeats={(n) => store.setRepeats(n)}
          onRun={() => store.run(ctx, settings.keys, words)}
          onStop={() => store.stop()}
          onAddCase={() => store.addCase()}
          onOpen={(name, text) => store.open(name, text)}
          onExport={() => exportFile(store)}
          onSave={() => store.saveToWorkspace()}
        />
        <EvalResults report={state.report} />
        <EvalCases cases={state.draft.cases} actions={caseActions(store)} />
      </div>
    </Panel>
  );
}
