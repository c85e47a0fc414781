/**
 * The Intercept tab's Rules region (issue 13): every rule in force, in order (the first enabled
 * rule that matches a frame decides), each described in words with its enabled box, Edit and
 * Delete; `Add rule` opens the form (intercept-rule-form.tsx). The list is the proxy's: a change
 * is handed up whole, and is saved with the workspace.
 */
import { useState, type ReactNode } from 'react';
import type { Rule } from '../../lib/model/rules.ts';
import { RuleForm } from './rule-form.tsx';
import { draftOf, EMPTY_DRAFT, freshRuleId } from './rule-form-model.ts';
import { describeRule, ruleTitle } from './rule-words.ts';
import { Text } from '../ui/text.tsx';
import { Badge, buttonClass, Note, Panel } from '../ui/ui.tsx';

export interface InterceptRulesProps {
  rules: readonly Rule[];
  /** Where the rules came from when not a page (`--rules FILE`, the workspace file). */
  source?: string;
  servers: readonly string[];
  canAct: boolean;
  /** What could not be done, in words. */
  problem?: string;
  onSave(rule: Rule): void;
  onDelete(id: string): void;
  onEnabled(id: string, enabled: boolean): void;
}

const small = `${buttonClass} !px-2 !py-0.5 !text-xs`;

type Editing = { mode: 'add' } | { mode: 'edit'; id: string } | undefined;

function RuleRow({ rule, canAct, onEdit, onDelete, onEnabled }: { rule: Rule; canAct: boolean; onEdit(): void; onDelete(): void; onEnabled(on: boolean): void }): ReactNode {
  const title = ruleTitle(rule);
  const enabled = rule.enabled !== false;
  return (
    <li className="flex flex-wrap items-start gap-2 rounded-md border border-zinc-200 px-2 py-1.5 text-sm dark:border-zinc-700">
      <input type="checkbox" className="mt-1" aria-label={`Enabled: ${title}`} checked={enabled} disabled={!canAct} onChange={(e) => onEnabled(e.target.checked)} />
      <div className="min-w-0 flex-1">
        <p className="font-medium">
          <Text>{title}</Text> {!enabled && <Badge>disabled</Badge>}
        </p>
        {rule.name?.trim() && <p className="text-xs text-zinc-600 dark:text-zinc-300"><Text>{describeRule(rule)}</Text></p>}
      </div>
      <span className="flex gap-1">
        <button type="button" className={small} disabled={!canAct} aria-label={`Edit ${title}`} onClick={onEdit}>Edit</button>
        <button type="button" className={small} disabled={!canAct} aria-label={`Delete ${title}`} onClick={onDelete}>Delete</button>
      </span>
    </li>
  );
}

export function InterceptRules({ rules, source, servers, canAct, problem, onSave, onDelete, onEnabled }: InterceptRulesProps): ReactNode {
  const [editing, setEditing] = useState<Editing>();
  const edited = editing?.mode === 'edit' ? rules.find((r) => r.id === editing.id) : undefined;
  const save = (rule: Rule) => {
    onSave(rule);
    setEditing(undefined);
  };
  return (
    <Panel
      title={`Rules (${rules.length})`}
      label="Rules"
      actions={<button type="button" className={small} disabled={!canAct || editing?.mode === 'add'} onClick={() => setEditing({ mode: 'add' })}>Add rule</button>}
    >
      <p className="mb-2 text-xs text-zinc-600 dark:text-zinc-300">
        Rules act on the frames of every session, Loupe’s own, tapped and gateway ones: the first enabled rule that matches a frame decides. They are saved with Save workspace.
        {source && (
          <>
            {' '}Loaded from <Text className="font-mono">{source}</Text>.
          </>
        )}
      </p>
      {problem && <Note tone="bad">{problem}</Note>}
      {rules.length === 0 && !editing && <Note>No rules: every frame goes on as it is. Add rule to pause, change or refuse frames.</Note>}
      {rules.length > 0 && (
        <ol className="space-y-1" aria-label="Rules in order">
          {rules.map((rule) =>
            edited?.id === rule.id ? (
              <li key={rule.id}>
                <RuleForm initial={draftOf(rule)} id={rule.id} servers={servers} canSave={canAct} onSave={save} onCancel={() => setEditing(undefined)} />
              </li>
            ) : (
              <RuleRow key={rule.id} rule={rule} canAct={canAct} onEdit={() => setEditing({ mode: 'edit', id: rule.id })} onDelete={() => onDelete(rule.id)} onEnabled={(on) => onEnabled(rule.id, on)} />
            ),
          )}
        </ol>
      )}
      {editing?.mode === 'add' && (
        <div className="mt-2">
          <RuleForm initial={EMPTY_DRAFT} id={freshRuleId(rules)} servers={servers} canSave={canAct} onSave={save} onCancel={() => setEditing(undefined)} />
        </div>
      )}
    </Panel>
  );
}
