'use client';
/**
 * One MCP Apps view of the apps store (issue 24) as its panel: the slot's state, and the store's
 * methods for what the panel does (relay the sandbox's messages, host context, replay, tear down,
 * mount again). The Tools tab and the Playground show their views through it; an answer to an ask
 * is the store's unless the caller has its own (the Playground sends an approved message on).
 */
import type { ReactNode } from 'react';
import { ViewPanel } from '@/components/apps/panel.tsx';
import { saveFile } from '@/components/ui/download.ts';
import type { ViewAsk } from '../../lib/wire/wire.ts';
import type { ViewSlot } from '../_stores/apps-store.ts';
import { useServices } from '../_hooks/use-loupe.ts';

export interface SlotViewProps {
  slotKey: string;
  slot: ViewSlot;
  onAnswer?: (ask: string, approve: boolean) => void;
  cannotApprove?: (ask: ViewAsk) => string | undefined;
}

export function SlotView({ slotKey, slot, onAnswer, cannotApprove }: SlotViewProps): ReactNode {
  const { apps } = useServices();
  return (
    <ViewPanel
      tool={slot.tool}
      opening={slot.pending !== undefined}
      state={slot.state}
      error={slot.error}
      problem={slot.problem}
      input={slot.input}
      result={slot.result}
      callId={slot.callId}
      onMessage={(view, text) => apps.relay(view, text)}
      attach={(view, post) => apps.attach(view, post)}
      onContext={(patch) => apps.setContext(slotKey, patch)}
      onReplay={(input, result) => apps.replay(slotKey, input, result)}
      onAnswer={onAnswer ?? ((ask, approve) => apps.answer(slotKey, ask, approve))}
      cannotApprove={cannotApprove}
      downloads={slot.downloads}
      onSave={saveFile}
      onTearDown={() => apps.tearDown(slotKey)}
      onMountAgain={() => apps.mountAgain(slotKey)}
    />
  );
}
