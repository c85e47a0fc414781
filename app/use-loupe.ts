'use client';
import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ToolEntry } from '../lib/tool-schema.ts';
import type { CallState } from './call-store.ts';
import type { ClientSettings } from './client-settings-store.ts';
import type { PromptEntry, ResourceEntry, TemplateEntry } from './list-specs.ts';
import type { ListState } from './list-store.ts';
import type { LoupeServices } from './loupe-services.ts';
import type { LoupeState } from './loupe-state.ts';
import type { ServerRequestState } from './server-request-store.ts';
import type { TasksState } from './tasks-store.ts';
import type { Theme } from './theme-store.ts';
import type { ActionsState } from './trace-actions.ts';
import type { TraceView } from './trace-store.ts';
import { useStore } from './use-store.ts';

export const LoupeContext = createContext<LoupeServices | null>(null);

export function useServices(): LoupeServices {
  const services = useContext(LoupeContext);
  if (!services) throw new Error('useServices outside <LoupeContext.Provider>');
  return services;
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
export const useToolList = (): ListState<ToolEntry> => useStore(useServices().tools);
export const useResourceList = (): ListState<ResourceEntry> => useStore(useServices().resources);
export const useTemplateList = (): ListState<TemplateEntry> => useStore(useServices().templates);
export const usePromptList = (): ListState<PromptEntry> => useStore(useServices().prompts);
export const useCall = (): CallState => useStore(useServices().call);
export const useTheme = (): Theme => useStore(useServices().theme);
export const useServerRequests = (): ServerRequestState => useStore(useServices().serverRequests);
export const useTasks = (): TasksState => useStore(useServices().tasks);
export const useClientSettings = (): ClientSettings => useStore(useServices().clientSettings);
export const useTrace = (): TraceView => useStore(useServices().trace);
export const useTraceActions = (): ActionsState => useStore(useServices().traceActions);
