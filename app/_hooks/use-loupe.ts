'use client';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ToolEntry } from '../../lib/schema/tool-schema.ts';
import type { SessionInfo } from '../../lib/wire/wire.ts';
import type { CallState } from '../_stores/call-store.ts';
import type { ClientSettings } from '../_stores/client-settings-store.ts';
import type { PromptEntry, ResourceEntry, TemplateEntry } from '../_stores/list-specs.ts';
import type { ListState } from '../_stores/list-store.ts';
import { ALL_SERVERS, type LoupeServices } from '../_session/loupe-services.ts';
import { defaultSession, type LoupeState } from '../_session/loupe-state.ts';
import type { ServerRequestState } from '../_stores/server-request-store.ts';
import type { SessionModel } from '../_session/model.ts';
import type { TasksState } from '../_stores/tasks-store.ts';
import type { Theme } from '../_stores/theme-store.ts';
import type { ActionsState } from '../_stores/trace-actions.ts';
import type { TraceView } from '../_stores/trace-store.ts';
import { useStore } from './use-store.ts';

export const LoupeContext = createContext<LoupeServices | null>(null);
/** The session a subtree of the page is about (the selected server's panels). */
export const SessionContext = createContext<SessionModel | null>(null);

export function useServices(): LoupeServices {
  const services = useContext(LoupeContext);
  if (!services) throw new Error('useServices outside <LoupeContext.Provider>');
  return services;
}

/** The model of the session this subtree shows. */
export function useSession(): SessionModel {
  const model = useContext(SessionContext);
  if (!model) throw new Error('useSession outside <SessionContext.Provider>');
  return model;
}

export const useLoupeState = (): LoupeState => useStore(useServices().app);

/**
 * One slice of the proxy state; the component re-renders only when the slice changes identity
 * (trace events arrive often; most components do not care). `select` must return stored objects.
 */
export function useLoupeSelector<T>(select: (state: LoupeState) => T): T {
  const { app } = useServices();
  const get = () => select(app.getSnapshot());
  return useSyncExternalStore(app.subscribe, get, get);
}

/** What the Servers panel has selected: a session id, ALL_SERVERS, or undefined (no session yet). */
export function useSelectedServer(): string | undefined {
  const { selected } = useServices();
  const chosen = useStore(selected);
  return useLoupeSelector((s) => (chosen === ALL_SERVERS || (chosen !== undefined && s.sessions[chosen]) ? chosen : defaultSession(s)));
}

/** The SessionInfo of this subtree's session. */
export const useSessionInfo = (): SessionInfo | undefined => useStore(useSession().port).info;

export const useToolList = (): ListState<ToolEntry> => useStore(useSession().tools);
export const useResourceList = (): ListState<ResourceEntry> => useStore(useSession().resources);
export const useTemplateList = (): ListState<TemplateEntry> => useStore(useSession().templates);
export const usePromptList = (): ListState<PromptEntry> => useStore(useSession().prompts);
export const useCall = (): CallState => useStore(useSession().call);
export const useTheme = (): Theme => useStore(useServices().theme);
export const useServerRequests = (): ServerRequestState => useStore(useServices().serverRequests);
export const useTasks = (): TasksState => useStore(useSession().tasks);
export const useClientSettings = (): ClientSettings => useStore(useServices().clientSettings);
export const useTrace = (): TraceView => useStore(useSession().trace);
export const useTraceActions = (): ActionsState => useStore(useSession().traceActions);
