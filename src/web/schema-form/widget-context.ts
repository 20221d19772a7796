import { createContext, type ReactNode, useContext } from 'react';
import type { FieldSpec } from './field-spec.ts';

/**
 * Lets the page that hosts a form draw some fields itself (input files with a picker, a voice with
 * presets). Return undefined to keep the standard widget; null draws nothing.
 */
export type WidgetOverride = (props: { spec: FieldSpec; name: string }) => ReactNode | undefined;

export const WidgetContext = createContext<WidgetOverride | null>(null);

export function useWidgetOverride(): WidgetOverride | null {
  return useContext(WidgetContext);
}
