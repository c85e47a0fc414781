'use client';
import { createContext, useContext } from 'react';
import type { ToolEntry } from '../lib/tool-schema.ts';
import type { CallState } from './call-store.ts';
import type { PromptEntry, ResourceEntry, TemplateEntry } from './list-specs.ts';
import type { ListState } from './list-store.ts';
import type { LoupeServices } from './loupe-services.ts';
import type { LoupeState } from './loupe-state.ts';
import type { Theme } from './theme-store.ts';
import { useStore } from './use-store.ts';

export const LoupeContext = createContext<LoupeServices | null>(null);

export function useServices(): LoupeServices {
  const services = useContext(LoupeContext);
  if (!services) throw new Error('useServices outside <LoupeContext.Provider>');
  return services;
}

export const useLoupeState = (): LoupeState => useStore(useServices().app);
export const useToolList = (): ListState<ToolEntry> => useStore(useServices().tools);
export const useResourceList = (): ListState<ResourceEntry> => useStore(useServices().resources);
export const useTemplateList = (): ListState<TemplateEntry> => useStore(useServices().templates);
export const usePromptList = (): ListState<PromptEntry> => useStore(useServices().prompts);
export const useCall = (): CallState => useStore(useServices().call);
export const useTheme = (): Theme => useStore(useServices().theme);
