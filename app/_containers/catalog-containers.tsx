'use client';
/** The Resources and Prompts tabs (kept under this name for the page's imports). */
export { ResourcesContainer } from './resources.tsx';
export { PromptsContainer } from './prompts.tsx';
