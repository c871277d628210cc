/**
 * What an empty list in a workbench says besides "no data": a screen that hosts several resource
 * tables (the device type's tabs) gives them, through this context, a way to fill an empty one
 * from elsewhere (copy from another type). An empty table then says what it is for, offers to add
 * the first item and shows this guide's action.
 */
import { createContext, useContext, type ReactNode } from 'react';

export interface EmptyGuide {
  /** An action beside "Add the first" (a button). */
  action?: ReactNode;
}

const EmptyGuideContext = createContext<EmptyGuide | undefined>(undefined);

export const EmptyGuideProvider = EmptyGuideContext.Provider;

export function useEmptyGuide(): EmptyGuide | undefined {
  return useContext(EmptyGuideContext);
}
