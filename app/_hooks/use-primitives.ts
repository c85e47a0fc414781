'use client';
/** Hooks for the Tools, Resources and Prompts tabs' own stores (kept apart from use-loupe.ts). */
import type { MainTab } from '../_stores/nav-store.ts';
import type { PromptState } from '../_stores/prompt-store.ts';
import type { ResourceState } from '../_stores/resource-store.ts';
import { useServices, useSession } from './use-loupe.ts';
import { useStore } from './use-store.ts';

export const useMainTab = (): MainTab => useStore(useServices().nav);
export const useResourceView = (): ResourceState => useStore(useSession().resourceView);
export const usePromptView = (): PromptState => useStore(useSession().promptView);
/** Re-renders when remembered arguments change. */
export const useArgsVersion = (): number => useStore(useServices().args);
