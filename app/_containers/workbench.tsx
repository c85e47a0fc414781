'use client';
/**
 * The keyboard workbench (issue 26), mounted once in the shell: the command palette (Ctrl/⌘+K),
 * the `Keyboard shortcuts` panel (`?`), and the shortcuts of lib/keyboard/shortcuts.ts acted on
 * through the stores (commands.ts). Focus goes back where it was when a dialog closes; a choice
 * then moves it where the choice leads (a tool's first field, the chosen frame's table …).
 */
import { useEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { Palette, type PaletteItem, type PaletteKind } from '@/components/shell/palette.tsx';
import { ShortcutsPanel } from '@/components/shell/shortcuts-panel.tsx';
import { remember } from '../../lib/keyboard/fuzzy.ts';
import { SHORTCUTS, type ShortcutId } from '../../lib/keyboard/shortcuts.ts';
import { ALL_SERVERS, type LoupeServices } from '../_session/loupe-services.ts';
import type { SessionModel } from '../_session/model.ts';
import { focusHistoryFilter, keepFocusVisible, moveFrame, rerunLastCall, runShownTool, switchServer } from './commands.ts';
import { paletteEntries, type WorkbenchActions } from './palette-items.ts';
import { platformIsMac, useShortcuts } from '../_hooks/use-shortcuts.ts';
import { useSelectedServer, useServices } from '../_hooks/use-loupe.ts';
import { useStore } from '../_hooks/use-store.ts';

type Open = { what: 'palette'; scope?: PaletteKind } | { what: 'shortcuts' } | undefined;

/** The shortcut's deed; false when it does not apply here (the key then goes on to the page). */
function perform(id: ShortcutId, services: LoupeServices, shown: string | undefined, model: SessionModel | undefined): boolean {
  switch (id) {
    case 'run':
      return runShownTool(services);
    case 'rerun':
      return rerunLastCall(services, model, false);
    case 'next-frame':
    case 'previous-frame':
      return moveFrame(services, model, id === 'next-frame' ? 1 : -1, false);
    case 'focus-filter':
      return focusHistoryFilter(services, model);
    case 'next-server':
    case 'previous-server':
      return switchServer(services, shown, id === 'next-server' ? 1 : -1);
    case 'toggle-sidebar':
      services.layout.toggleSidebar();
      return true;
    default:
      return false;
  }
}

/** The palette's items, kept up to date while it is open (lists loading, a server added). */
function PaletteHost(props: { services: LoupeServices; shown: string | undefined; model: SessionModel | undefined; mac: boolean; scope?: PaletteKind; recent: readonly string[]; workbench: WorkbenchActions; onChoose(item: PaletteItem, run: () => void): void; onClose(): void }): ReactNode {
  const { services, shown, model, mac, workbench } = props;
  const app = useStore(services.app);
  const [version, bump] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    if (!model) return undefined;
    const offs = [model.tools, model.resources, model.prompts].map((store) => store.subscribe(bump));
    return () => offs.forEach((off) => off());
  }, [model]);
  const entries = useMemo(() => paletteEntries({ services, shown, model, mac, workbench }), [services, shown, model, mac, workbench, app, version]);
  const runs = new Map(entries.map((e) => [e.item.key, e.run]));
  const items = useMemo(() => entries.map((e) => e.item), [entries]);
  return <Palette items={items} recent={props.recent} scope={props.scope} onClose={props.onClose} onChoose={(item) => props.onChoose(item, runs.get(item.key) ?? (() => undefined))} />;
}

export function Workbench(): ReactNode {
  const services = useServices();
  const shown = useSelectedServer();
  const model = shown !== undefined && shown !== ALL_SERVERS ? services.sessions.get(shown) : undefined;
  const [open, setOpen] = useState<Open>();
  const [recent, setRecent] = useState<readonly string[]>([]);
  const returnTo = useRef<HTMLElement | null>(null);
  const mac = useMemo(platformIsMac, []);
  const openDialog = (next: Open) => {
    if (!open) returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(next);
  };
  const close = () => {
    setOpen(undefined);
    const back = returnTo.current;
    returnTo.current = null;
    // After React removed the dialog: the element behind it is focusable again.
    requestAnimationFrame(() => {
      if (back?.isConnected) back.focus();
      keepFocusVisible();
    });
  };
  const workbench = useMemo<WorkbenchActions>(() => ({ switchServer: () => setOpen({ what: 'palette', scope: 'server' }), showShortcuts: () => setOpen({ what: 'shortcuts' }) }), []);
  useShortcuts((id) => {
    if (id === 'palette') {
      if (open?.what === 'palette') close();
      else openDialog({ what: 'palette' });
      return true;
    }
    if (id === 'help') {
      openDialog({ what: 'shortcuts' });
      return true;
    }
    return perform(id, services, shown, model);
  });
  const choose = (item: PaletteItem, run: () => void) => {
    setRecent((list) => remember(list, item.key));
    const back = returnTo.current;
    // The workbench's own actions open the next dialog in place of this one, keeping where focus returns.
    if (item.key === 'action:switch-server' || item.key === 'action:shortcuts') {
      run();
      return;
    }
    setOpen(undefined);
    returnTo.current = null;
    requestAnimationFrame(() => {
      if (back?.isConnected) back.focus();
      run();
      keepFocusVisible();
    });
  };
  if (open?.what === 'shortcuts') return <ShortcutsPanel shortcuts={SHORTCUTS} mac={mac} onClose={close} />;
  if (open?.what === 'palette') return <PaletteHost key={open.scope ?? 'all'} services={services} shown={shown} model={model} mac={mac} scope={open.scope} recent={recent} workbench={workbench} onChoose={choose} onClose={close} />;
  return null;
}
